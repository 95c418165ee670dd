#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Codable so a `JSONValue` can sit inside any DTO, whichever coder reads
/// it (ours, or Foundation's in tests and tools).
extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        // Our reader reads the tree straight from the text: no guessing.
        if let reader = decoder as? JSONReader {
            self = try reader.value()
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value):
            // A whole number is written as one (`2`, not `2.0`) while a
            // double still holds it exactly.
            if let exact = Int64(exactly: value), abs(value) <= 0x1p53 { try container.encode(exact) } else { try container.encode(value) }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue {
    /// What a value is, shortly, for an error message: `1.5`, `1e20`,
    /// `null`, `true`, `a string`, `an object`. Never a Swift type name.
    var shortDescription: String {
        switch self {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .integer(let value): String(value)
        case .number(let value): Self.render(value)
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// A double as JSON would write it: `1.5`, `20`, `1e20`, `-2.5e-7`
    /// (Swift writes `1e+20` and `2.5e-07`).
    static func render(_ value: Double) -> String {
        if let exact = Int64(exactly: value), abs(value) < 1e15 { return String(exact) }
        let text = value.description
        guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }), let exponent = Int(text[text.index(after: e)...]) else { return text }
        return "\(text[..<e])e\(exponent)"
    }
}
