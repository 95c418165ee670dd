import ZeroMQ

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
