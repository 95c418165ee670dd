/// A JSON-RPC 2.0 request id: a string, an integer, or null.
public enum JSONRPCID: Sendable, Hashable, Codable, CustomStringConvertible {
    case string(String)
    case number(Int64)
    case null

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let number = try? container.decode(Int64.self) {
            self = .number(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }

    /// One text per id, used to match replies to requests: `"abc"` and `7`
    /// never collide because strings keep their quotes.
    public var correlationKey: String? {
        switch self {
        case .string(let value): "\"\(value)\""
        case .number(let value): "\(value)"
        case .null: nil
        }
    }

    /// The id a request's `id` member stands for, or nil when JSON-RPC 2.0
    /// allows no such id (a fraction, a boolean, an object, an array). A
    /// number without a fraction (`7`, `7.0`) is the integer it stands for.
    init?(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .string(let text): self = .string(text)
        case .integer, .number:
            guard let integer = value.int64Value else { return nil }
            self = .number(integer)
        default: return nil
        }
    }

    public var description: String { correlationKey ?? "null" }
}
