import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes a Codable value from a parsed `JSONValue`, failing with Domain's
/// `InvalidField`: the field's full path (`params.post.title`,
/// `params.posts[3].uid`) and what was wrong in JSON's words (`must be an
/// integer (got 1.5)`), never a Swift type name.
///
/// A `Decoder` rather than hand-written readers per type: the params and
/// results are plain Codable types shared with encoding (the DTOs here,
/// Domain's `SearchHit` and `SystemStatus`), so one decoder gives every one
/// of them precise errors, with nothing to keep in step when a type changes.
struct JSONValueDecoder: Decoder {
    let value: JSONValue
    /// What the path starts from: `params`, `result`.
    let root: String
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// `T` read from `value`, or the field that is wrong.
    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, root: String) throws(PostsError) -> T {
        do {
            return try primitive(type, value, root: root, path: [], key: nil)
        } catch let error as PostsError {
            throw error
        } catch DecodingError.keyNotFound(let key, let context) {
            // Thrown by a type's own init(from:), not by this decoder.
            throw .invalid(field(root, context.codingPath, key), .missing)
        } catch DecodingError.dataCorrupted(let context) {
            // A type's own check (a range whose ends are the wrong way round, say).
            throw .invalid(field(root, context.codingPath, nil), .malformed("is not a valid value"))
        } catch {
            throw .invalid(root, .malformed("cannot be read"))
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw Self.wrongType(.object, value, root, codingPath, nil) }
        return KeyedDecodingContainer(Keyed(members: members, root: root, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw Self.wrongType(.array, value, root, codingPath, nil) }
        return Unkeyed(elements: elements, root: root, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(value: value, root: root, codingPath: codingPath) }

    /// `params.post.title`, `params.posts[3].uid`; `params` itself for an empty path.
    /// `key` is the last key, passed apart so that a path is built only for an error.
    static func field(_ root: String, _ path: [any CodingKey], _ key: (any CodingKey)?) -> String {
        var name = root
        for key in path + (key.map { [$0] } ?? []) {
            name += key is IndexKey ? "[\(key.intValue ?? 0)]" : ".\(key.stringValue)"
        }
        return name
    }

    static func wrongType(_ expected: ValueKind, _ value: JSONValue, _ root: String, _ path: [any CodingKey], _ key: (any CodingKey)?) -> PostsError {
        .invalid(field(root, path, key), .wrongType(expected: expected, actual: value.shortDescription))
    }

    /// The one place values are read, for every kind of container; the
    /// types JSON has directly are read here, others through `init(from:)`.
    static func primitive<T: Decodable>(_ type: T.Type, _ value: JSONValue, root: String, path: [any CodingKey], key: (any CodingKey)?) throws -> T {
        func wrong(_ expected: ValueKind) -> PostsError { wrongType(expected, value, root, path, key) }
        switch type {
        case is String.Type:
            guard case .string(let text) = value else { throw wrong(.string) }
            return text as! T
        case is Bool.Type:
            guard case .bool(let flag) = value else { throw wrong(.boolean) }
            return flag as! T
        case is Double.Type:
            guard let number = value.doubleValue else { throw wrong(.number) }
            return number as! T
        case is Float.Type:
            guard let number = value.doubleValue else { throw wrong(.number) }
            guard Float(number).isFinite else {
                throw PostsError.invalid(field(root, path, key), .malformed("is too large a number (got \(value.shortDescription))"))
            }
            return Float(number) as! T
        case let integer as any FixedWidthInteger.Type:
            return try exact(integer, value, wrong: wrong, field: { field(root, path, key) }) as! T
        case is UUID.Type:
            guard case .string(let text) = value else { throw wrong(.string) }
            guard let uuid = UUID(text: text) else { throw PostsError.invalid(field(root, path, key), .notUUID(text)) }
            return uuid as! T
        case is JSONValue.Type:
            return value as! T
        default:
            return try T(from: JSONValueDecoder(value: value, root: root, codingPath: path + (key.map { [$0] } ?? [])))
        }
    }

    /// An integer of type `I`: any number without a fraction (`20`, `20.0`,
    /// `2e1`) that `I` holds; a larger one is out of range, as written.
    private static func exact<I: FixedWidthInteger>(
        _ type: I.Type, _ value: JSONValue, wrong: (ValueKind) -> PostsError,
        field: () -> String
    ) throws(PostsError) -> I {
        switch value {
        case .integer(let integer):
            if let exact = I(exactly: integer) { return exact }
        case .number(let number) where number.rounded(.towardZero) == number:
            if let exact = I(exactly: number) { return exact }
        default:
            throw wrong(.integer)
        }
        throw .invalid(field(), .outOfRange(min: Int64(clamping: I.min), max: Int64(clamping: I.max), actual: value.shortDescription))
    }
}
