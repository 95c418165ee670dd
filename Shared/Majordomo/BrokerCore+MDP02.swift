import ZeroMQ

/// MDP 0.2 (18/MDP: `MDPC02`, `MDPW02`) peers, answered so they can tell
/// this broker speaks 7/MDP 0.1 instead of getting silence: a client gets a
/// FINAL whose body is the refusal, a worker gets DISCONNECT. Each reply is
/// in the dialect the peer used: 18/MDP itself (no empty delimiter, client
/// REQUEST 0x01, FINAL 0x03 with the service name) or the one the Python
/// package majortomo speaks (an empty delimiter first, the worker's command
/// bytes for clients too: REQUEST 0x02, FINAL 0x04, no service frame).
extension BrokerCore {
    enum MDP02 {
        static let clientHeader: Frame = "MDPC02"
        static let workerHeader: Frame = "MDPW02"
        static let specRequest: UInt8 = 0x01, specFinal: UInt8 = 0x03
        static let delimitedRequest: UInt8 = 0x02, delimitedFinal: UInt8 = 0x04
        static let disconnect: UInt8 = 0x06
    }

    /// Answers `frames` if they are MDP 0.2; returns whether they were.
    mutating func answerMDP02(_ frames: [Frame]) -> Bool {
        guard let sender = frames.first else { return false }
        var rest = frames.dropFirst()
        let delimited = rest.first?.isEmpty == true
        if delimited { rest = rest.dropFirst() }
        guard let header = rest.popFirst(), header == MDP02.clientHeader || header == MDP02.workerHeader else { return false }
        totals.malformed += 1
        let envelope: [Frame] = [sender] + (delimited ? [MDP.empty] : [])
        if header == MDP02.workerHeader {
            outbox.append(envelope + [MDP02.workerHeader, Frame(byte: MDP02.disconnect)])
            events.append(.protocolViolation(identity: sender, reason: "speaks MDP 0.2 (MDPW02); this broker speaks 7/MDP 0.1 (MDPW01)"))
            return true
        }
        let command = rest.popFirst()?.singleByte
        let service = rest.popFirst() ?? MDP.empty
        let body = replies.refusal(.unsupportedProtocol(header: "MDPC02", service: service.string ?? ""), request: Array(rest))
        let final = command == MDP02.delimitedRequest ? [Frame(byte: MDP02.delimitedFinal)] : [Frame(byte: MDP02.specFinal), service]
        outbox.append(envelope + [MDP02.clientHeader] + final + body)
        events.append(.malformed(sender: sender, reason: "speaks MDP 0.2 (MDPC02); answered that this broker speaks 7/MDP 0.1"))
        return true
    }
}
