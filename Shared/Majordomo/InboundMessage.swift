import ZeroMQ

/// A message the broker received, parsed from the frames that follow the
/// sender's routing id.
enum InboundMessage: Equatable {
    case clientRequest(service: String, body: [Frame])
    case ready(service: String)
    case reply(client: Frame, body: [Frame])
    case heartbeat
    case disconnect
}

/// Why the broker could not read a message. Each names what was wrong.
enum MalformedMessage: Error, Equatable, CustomStringConvertible {
    case missingDelimiter
    case unknownHeader(Frame)
    case truncated(expected: String)
    case unknownCommand(Frame)
    case invalidServiceName(Frame)
    case tooManyFrames(Int)

    var description: String {
        switch self {
        case .missingDelimiter: "no empty delimiter frame before the protocol header"
        case .unknownHeader(let header): "unknown protocol header \(header) (this broker speaks MDPC01 and MDPW01)"
        case .truncated(let expected): "message ends before its \(expected)"
        case .unknownCommand(let command): "unknown worker command \(command)"
        case .invalidServiceName(let name): "service name \(name) is not 1 to \(MDP.serviceNameLimit) of A-Z a-z 0-9 . - _"
        case .tooManyFrames(let count): "\(count) frames is more than a message may have"
        }
    }
}

extension InboundMessage {
    /// Parses `frames` (routing id already removed) per 7/MDP.
    static func parse(_ frames: ArraySlice<Frame>, maxFrames: Int) -> Result<InboundMessage, MalformedMessage> {
        guard frames.count <= maxFrames else { return .failure(.tooManyFrames(frames.count)) }
        var rest = frames
        guard let delimiter = rest.popFirst(), delimiter.isEmpty else { return .failure(.missingDelimiter) }
        guard let header = rest.popFirst() else { return .failure(.truncated(expected: "protocol header")) }
        if header == MDP.clientHeader {
            guard let service = rest.popFirst() else { return .failure(.truncated(expected: "service name")) }
            guard let name = serviceName(service) else { return .failure(.invalidServiceName(service)) }
            return .success(.clientRequest(service: name, body: Array(rest)))
        }
        guard header == MDP.workerHeader else { return .failure(.unknownHeader(header)) }
        guard let commandFrame = rest.popFirst() else { return .failure(.truncated(expected: "worker command")) }
        guard let byte = commandFrame.singleByte, let command = MDP.Command(rawValue: byte) else {
            return .failure(.unknownCommand(commandFrame))
        }
        switch command {
        case .ready:
            guard let service = rest.popFirst() else { return .failure(.truncated(expected: "service name")) }
            guard let name = serviceName(service) else { return .failure(.invalidServiceName(service)) }
            return .success(.ready(service: name))
        case .reply:
            guard let client = rest.popFirst(), !client.isEmpty else { return .failure(.truncated(expected: "client address")) }
            guard let empty = rest.popFirst(), empty.isEmpty else { return .failure(.missingDelimiter) }
            return .success(.reply(client: client, body: Array(rest)))
        case .heartbeat:
            return .success(.heartbeat)
        case .disconnect:
            return .success(.disconnect)
        case .request:
            // Only the broker sends REQUEST; from a worker it is a violation.
            return .failure(.unknownCommand(commandFrame))
        }
    }

    private static func serviceName(_ frame: Frame) -> String? {
        MDP.isValidServiceName(frame) ? frame.string : nil
    }
}
