import ZeroMQ

/// A message the broker received, parsed from the frames that follow the
/// sender's routing id.
enum InboundMessage: Equatable {
    case clientRequest(service: String, body: [Frame])
    /// With the brokers the worker also serves, when it says, and how many
    /// requests it takes at once (`MDP.ready`).
    case ready(service: String, brokers: [String] = [], credit: Int = 1)
    case reply(client: Frame, body: [Frame])
    case heartbeat
    case disconnect
}

extension InboundMessage {
    /// Parses `frames` (routing id already removed) per 7/MDP. Frames are
    /// read by position: taking them off a slice one by one retained and
    /// released each twice.
    static func parse(_ frames: ArraySlice<Frame>, maxFrames: Int) -> Result<InboundMessage, MalformedMessage> {
        guard frames.count <= maxFrames else { return .failure(.tooManyFrames(frames.count)) }
        let at = frames.startIndex, end = frames.endIndex
        guard at < end, frames[at].isEmpty else { return .failure(.missingDelimiter) }
        guard at + 1 < end else { return .failure(.truncated(expected: "protocol header")) }
        let header = frames[at + 1]
        if header == MDP.clientHeader {
            guard at + 2 < end else { return .failure(.truncated(expected: "service name")) }
            guard let name = serviceName(frames[at + 2]) else { return .failure(.invalidServiceName(frames[at + 2])) }
            return .success(.clientRequest(service: name, body: Array(frames[(at + 3)...])))
        }
        guard header == MDP.workerHeader else { return .failure(.unknownHeader(header)) }
        guard at + 2 < end else { return .failure(.truncated(expected: "worker command")) }
        guard let byte = frames[at + 2].singleByte, let command = MDP.Command(rawValue: byte) else {
            return .failure(.unknownCommand(frames[at + 2]))
        }
        switch command {
        case .ready:
            guard at + 3 < end else { return .failure(.truncated(expected: "service name")) }
            guard let name = serviceName(frames[at + 3]) else { return .failure(.invalidServiceName(frames[at + 3])) }
            return .success(
                .ready(service: name, brokers: at + 4 < end ? brokers(frames[at + 4]) : [], credit: at + 5 < end ? credit(frames[at + 5]) : 1))
        case .reply:
            guard at + 3 < end, !frames[at + 3].isEmpty else { return .failure(.truncated(expected: "client address")) }
            guard at + 4 < end, frames[at + 4].isEmpty else { return .failure(.missingDelimiter) }
            return .success(.reply(client: frames[at + 3], body: Array(frames[(at + 5)...])))
        case .heartbeat:
            return .success(.heartbeat)
        case .disconnect:
            return .success(.disconnect)
        case .request:
            // Only the broker sends REQUEST; from a worker it is a violation.
            return .failure(.unknownCommand(frames[at + 2]))
        }
    }

    /// A READY's broker list, within `MDP.brokerListLimit`, printable ASCII
    /// only; what is past the limits is left out, and a list that is not
    /// text is no list.
    private static func brokers(_ frame: Frame) -> [String] {
        guard frame.count <= MDP.brokerListLimit.count * (MDP.brokerListLimit.bytes + 1), let text = frame.string,
            text.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        else { return [] }
        return text.split(separator: ",").prefix(MDP.brokerListLimit.count).filter { $0.utf8.count <= MDP.brokerListLimit.bytes }.map(String.init)
    }

    /// A READY's credit: 1 to `MDP.creditLimit` in decimal; anything else
    /// is no credit (one request at a time, as 7/MDP says).
    private static func credit(_ frame: Frame) -> Int {
        guard (1...4).contains(frame.count), let text = frame.string, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let credit = Int(text), (1...MDP.creditLimit).contains(credit)
        else { return 1 }
        return credit
    }

    private static func serviceName(_ frame: Frame) -> String? {
        MDP.isValidServiceName(frame) ? frame.string : nil
    }
}
