/// JSON-RPC 2.0 error codes: the standard ones and this product's own
/// (-32000 to -32099, the range JSON-RPC leaves to implementations).
/// docs/PROTOCOL.md lists when each is sent.
public struct JSONRPCErrorCode: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let parseError = Self(rawValue: -32700)
    public static let invalidRequest = Self(rawValue: -32600)
    public static let methodNotFound = Self(rawValue: -32601)
    public static let invalidParams = Self(rawValue: -32602)
    public static let internalError = Self(rawValue: -32603)

    public static let notFound = Self(rawValue: -32001)
    public static let conflict = Self(rawValue: -32002)
    public static let serviceUnavailable = Self(rawValue: -32003)
    public static let timeout = Self(rawValue: -32004)
    public static let tooLarge = Self(rawValue: -32005)
    public static let busy = Self(rawValue: -32006)

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(Int.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var name: String {
        switch self {
        case .parseError: "parse error"
        case .invalidRequest: "invalid request"
        case .methodNotFound: "method not found"
        case .invalidParams: "invalid params"
        case .internalError: "internal error"
        case .notFound: "not found"
        case .conflict: "conflict"
        case .serviceUnavailable: "service unavailable"
        case .timeout: "timeout"
        case .tooLarge: "too large"
        case .busy: "busy"
        default: "error \(rawValue)"
        }
    }

    public var description: String { "\(rawValue) (\(name))" }
}
