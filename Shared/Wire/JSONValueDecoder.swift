import Domain

/// Decodes a Codable value from a parsed `JSONValue`, failing with Domain's
/// `InvalidField`: the field's path (`post.title`, `posts[3].uid`) and what
/// was wrong, in the words of JSON (`must be an integer (got 1.5)`), never a
/// Swift type name. Foundation's decoder says "must be of type
/// Dictionary<String, Any>" and reports a 1.5 in an integer field as data
/// that is not valid JSON, with no field; the DTOs stay plain Codable types.
struct JSONValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws(PostsError) -> T {
        do {
            return try T(from: JSONValueDecoder(value: value, codingPath: []))
        } catch let error as PostsError {
            throw error
        } catch DecodingError.dataCorrupted(let context) {
            // A type's own check (a range whose bounds are the wrong way round, say).
            throw .invalid(field(context.codingPath), .malformed("is invalid: \(context.debugDescription)"))
        } catch {
            throw .invalid("params", .malformed("cannot be read"))
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw Self.wrongType(.object, value, codingPath) }
        return KeyedDecodingContainer(Keyed(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw Self.wrongType(.array, value, codingPath) }
        return Unkeyed(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(value: value, codingPath: codingPath) }

    /// `post.title`, `posts[3].uid`; `params` itself when the path is empty.
    static func field(_ path: [any CodingKey]) -> String {
        let name = path.reduce(into: "") { name, key in
            if let index = key.intValue { name += "[\(index)]" } else { name += name.isEmpty ? key.stringValue : ".\(key.stringValue)" }
        }
        return name.isEmpty ? "params" : name
    }

    static func wrongType(_ expected: ValueKind, _ value: JSONValue, _ path: [any CodingKey]) -> PostsError {
        .invalid(field(path), .wrongType(expected: expected, actual: value.shortDescription))
    }

    /// The one place primitives are read, for every kind of container.
    static func primitive<T: Decodable>(_ type: T.Type, _ value: JSONValue, _ path: [any CodingKey]) throws -> T {
        switch type {
        case is String.Type:
            guard case .string(let text) = value else { throw wrongType(.string, value, path) }
            return text as! T
        case is Bool.Type:
            guard case .bool(let flag) = value else { throw wrongType(.boolean, value, path) }
            return flag as! T
        case is Double.Type:
            guard case .number(let number) = value else { throw wrongType(.number, value, path) }
            return number as! T
        case let integer as any FixedWidthInteger.Type:
            guard case .number(let number) = value, number.rounded() == number else { throw wrongType(.integer, value, path) }
            guard let exact = integer.init(exactly: number) else {
                throw PostsError.invalid(field(path), .outOfRange(min: Int64(clamping: integer.min), max: Int64(clamping: integer.max),
                                                                  actual: value.shortDescription))
            }
            return exact as! T
        default:
            return try T(from: JSONValueDecoder(value: value, codingPath: path))
        }
    }
}

extension JSONValue {
    /// What a value is, shortly, for an error message: `1.5`, `null`, `an object`.
    var shortDescription: String {
        switch self {
        case .null: "null"
        case .bool(let flag): "\(flag)"
        case .number(let number): number.rounded() == number && abs(number) < 1e15 ? "\(Int64(number))" : "\(number)"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
