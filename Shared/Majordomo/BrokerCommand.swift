import ZeroMQ

/// A message from the broker to a worker, parsed per 7/MDP.
enum BrokerCommand: Equatable {
    case request(client: Frame, body: [Frame])
    case heartbeat
    case disconnect
    case malformed(String)

    init(_ frames: [Frame]) {
        guard frames.count >= 3, frames[0].isEmpty, frames[1] == MDP.workerHeader,
            let byte = frames[2].singleByte, let command = MDP.Command(rawValue: byte)
        else {
            self = .malformed("not an MDPW01 command")
            return
        }
        switch command {
        case .request:
            guard frames.count >= 5, frames[4].isEmpty else {
                self = .malformed("REQUEST without client address and delimiter")
                return
            }
            self = .request(client: frames[3], body: Array(frames[5...]))
        case .heartbeat: self = .heartbeat
        case .disconnect: self = .disconnect
        case .ready, .reply: self = .malformed("\(command) is not sent by a broker")
        }
    }
}
