import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes a Codable value from JSON text where it lies: each value is
/// read from its bytes when a type asks for it, with no tree in between
/// (an object's members are found once, as offsets, when a container is
/// made). It fails with Domain's `InvalidField`: the field's full path
/// (`params.post.title`, `params.posts[3].uid`) and what was wrong in
/// JSON's words (`must be an integer (got 1.5)`), never a Swift type name.
///
/// A `Decoder` rather than hand-written readers per type: the params and
/// results are plain Codable types shared with encoding (the DTOs here,
/// Domain's `SearchHit` and `SystemStatus`), so one decoder gives every one
/// of them precise errors, with nothing to keep in step when a type changes.
///
/// What it reads is checked as it is read (structure, escapes, UTF-8,
/// numbers); what it skips, for structure only. A request is checked whole
/// before it is read (`JSONBytes(checking:)`, `JSONRPC.decodeRequest`), so
/// that a fault anywhere in it is answered before anything acts on it.
struct JSONReader: Decoder {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Where the value starts (its first byte, past any space).
    let offset: Int
    /// What the path starts from: `params`, `result`.
    let root: String
    let codingPath: [any CodingKey]
    /// The text's containers, when its check noted them.
    var structure: JSONStructure? = nil
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// An object's member: its name, and where its value starts.
    struct Member: Sendable {
        let name: String
        let offset: Int
    }

    /// `T` read from the value at `offset` of `bytes`, or the field that is wrong.
    static func decode<T: Decodable>(
        _ type: T.Type, from bytes: UnsafeBufferPointer<UInt8>, at offset: Int = 0, root: String, structure: JSONStructure? = nil
    ) throws(PostsError) -> T {
        var parser = JSONParser(bytes: bytes)
        parser.index = offset
        parser.skipSpace()
        do {
            return try primitive(type, bytes, at: parser.index, root: root, path: [], key: nil, structure: structure)
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
        guard byte == UInt8(ascii: "{") else { throw wrongType(.object, key: nil) }
        let members = try structure?.objects[offset] ?? Self.members(bytes, at: offset, root: root, path: codingPath)
        return KeyedDecodingContainer(Keyed(reader: self, members: members))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard byte == UInt8(ascii: "[") else { throw wrongType(.array, key: nil) }
        return Unkeyed(reader: self, elements: try structure?.arrays[offset] ?? Self.elements(bytes, at: offset, root: root, path: codingPath))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(reader: self) }

    /// A value of this reader's container, at `offset`, named by `key`.
    func read<T: Decodable>(_ type: T.Type, at offset: Int, key: (any CodingKey)?, single: Bool = false) throws -> T {
        try Self.primitive(type, bytes, at: offset, root: root, path: codingPath, key: key, structure: structure, single: single)
    }

    /// The value's first byte.
    var byte: UInt8 { bytes[offset] }

    /// The value here as a tree, for a type that takes any JSON (`JSONValue`).
    func value() throws(PostsError) -> JSONValue { try Self.value(bytes, at: offset, root: root, path: codingPath, key: nil) }

    /// `params.post.title`, `params.posts[3].uid`; `params` itself for an empty path.
    /// `key` is the last key, passed apart so that a path is built only for an error.
    static func field(_ root: String, _ path: [any CodingKey], _ key: (any CodingKey)?) -> String {
        var name = root
        for key in path + (key.map { [$0] } ?? []) {
            name += key is IndexKey ? "[\(key.intValue ?? 0)]" : ".\(key.stringValue)"
        }
        return name
    }

    func wrongType(_ expected: ValueKind, key: (any CodingKey)?) -> PostsError {
        Self.wrongType(expected, bytes, at: offset, root, codingPath, key)
    }

    static func wrongType(
        _ expected: ValueKind, _ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, _ root: String, _ path: [any CodingKey],
        _ key: (any CodingKey)?
    ) -> PostsError {
        // The value is read whole only here, to say what it is.
        let actual = (try? value(bytes, at: offset, root: root, path: path, key: key))?.shortDescription ?? "not JSON"
        return .invalid(field(root, path, key), .wrongType(expected: expected, actual: actual))
    }

    /// What a parser's failure is, as the field it happened in.
    static func unreadable(_ failure: JSONParser.Failure, _ root: String, _ path: [any CodingKey], _ key: (any CodingKey)?) -> PostsError {
        let detail =
            switch failure {
            case .syntax(let offset, let detail): "\(detail) at byte \(offset)"
            case .tooDeep: "arrays and objects nested more than \(JSONParser.maxDepth) deep"
            }
        return .invalid(field(root, path, key), .malformed("is not valid JSON: \(detail)"))
    }

    /// Runs `read` with a parser at `offset`; a value that cannot be used,
    /// or text that is not JSON, is the field's fault.
    static func reading<T>(
        _ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, _ root: String, _ path: [any CodingKey], _ key: (any CodingKey)?,
        _ read: (inout JSONParser) throws(JSONParser.Failure) -> T
    ) throws(PostsError) -> T {
        var parser = JSONParser(bytes: bytes)
        parser.index = offset
        let result: T
        do {
            result = try read(&parser)
        } catch {
            throw unreadable(error, root, path, key)
        }
        if let issue = parser.issue {
            let inner = issue.path.isEmpty ? "" : (issue.path.first == "[" ? issue.path : ".\(issue.path)")
            throw .invalid(field(root, path, key) + inner, issue.reason)
        }
        return result
    }

    static func value(
        _ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, root: String, path: [any CodingKey], key: (any CodingKey)?
    ) throws(PostsError) -> JSONValue {
        try reading(bytes, at: offset, root, path, key) { parser throws(JSONParser.Failure) in try parser.value(depth: 0) }
    }

    /// The members of the object at `offset`: each name, and where its
    /// value starts; values are skipped, not read.
    static func members(
        _ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, root: String, path: [any CodingKey]
    ) throws(PostsError) -> [Member] {
        try reading(bytes, at: offset, root, path, nil) { parser throws(JSONParser.Failure) in
            var members: [Member] = []
            members.reserveCapacity(6)
            try parser.members(depth: 0) { parser, name throws(JSONParser.Failure) in
                parser.skipSpace()
                members.append(Member(name: name, offset: parser.index))
                try parser.skipValue(depth: 0)
                return true
            }
            return members
        }
    }

    /// Where each element of the array at `offset` starts.
    static func elements(
        _ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, root: String, path: [any CodingKey]
    ) throws(PostsError) -> [Int] {
        try reading(bytes, at: offset, root, path, nil) { parser throws(JSONParser.Failure) in
            var elements: [Int] = []
            parser.index += 1
            parser.skipSpace()
            if parser.peek == UInt8(ascii: "]") { return elements }
            while true {
                parser.skipSpace()
                elements.append(parser.index)
                try parser.skipValue(depth: 0)
                parser.skipSpace()
                switch parser.peek {
                case UInt8(ascii: ","): parser.index += 1
                case UInt8(ascii: "]"): return elements
                default: throw parser.syntax("expected ',' or ']' in an array")
                }
            }
        }
    }

    /// The one place values are read, for every kind of container; the
    /// types JSON has directly are read here, others through `init(from:)`.
    static func primitive<T: Decodable>(
        _ type: T.Type, _ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, root: String, path: [any CodingKey], key: (any CodingKey)?,
        structure: JSONStructure?, single: Bool = false
    ) throws -> T {
        guard offset < bytes.count else { throw unreadable(.syntax(offset: offset, detail: "unexpected end"), root, path, key) }
        let first = bytes[offset]
        func wrong(_ expected: ValueKind) -> PostsError { wrongType(expected, bytes, at: offset, root, path, key) }
        func read<V>(_ body: (inout JSONParser) throws(JSONParser.Failure) -> V) throws(PostsError) -> V {
            try reading(bytes, at: offset, root, path, key, body)
        }
        let isNumber = first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
        func integer<I: FixedWidthInteger>(_ type: I.Type) throws(PostsError) -> I {
            guard isNumber else { throw wrong(.integer) }
            return try exact(type, try number(), wrong: wrong, field: { field(root, path, key) })
        }
        func number() throws(PostsError) -> JSONValue {
            guard isNumber else { throw wrong(.number) }
            return try read { parser throws(JSONParser.Failure) in try parser.number() }
        }
        switch type {
        case is String.Type:
            guard first == UInt8(ascii: "\"") else { throw wrong(.string) }
            return try read { parser throws(JSONParser.Failure) in try parser.string() } as! T
        case is Bool.Type:
            switch first {
            case UInt8(ascii: "t"): try read { parser throws(JSONParser.Failure) in try parser.literal("true") }; return true as! T
            case UInt8(ascii: "f"): try read { parser throws(JSONParser.Failure) in try parser.literal("false") }; return false as! T
            default: throw wrong(.boolean)
            }
        case is Double.Type:
            guard let number = try number().doubleValue else { throw wrong(.number) }
            return number as! T
        case is Float.Type:
            let value = try number()
            guard let number = value.doubleValue else { throw wrong(.number) }
            guard Float(number).isFinite else {
                throw PostsError.invalid(field(root, path, key), .malformed("is too large a number (got \(value.shortDescription))"))
            }
            return Float(number) as! T
        case is Int.Type: return try integer(Int.self) as! T
        case is Int64.Type: return try integer(Int64.self) as! T
        case is UUID.Type:
            guard first == UInt8(ascii: "\"") else { throw wrong(.string) }
            let text = try read { parser throws(JSONParser.Failure) in try parser.string() }
            guard let uuid = UUID(text: text) else { throw PostsError.invalid(field(root, path, key), .notUUID(text)) }
            return uuid as! T
        case is JSONValue.Type:
            return try value(bytes, at: offset, root: root, path: path, key: key) as! T
        default:
            // Other integers. Asked only of a value that is not an object or
            // an array (a struct's is), or from a type's own single value
            // (`Int32.init(from:)`), which must not come back here.
            if first != UInt8(ascii: "{") && first != UInt8(ascii: "[") || single, let type = type as? any FixedWidthInteger.Type {
                return try integer(type) as! T
            }
            return try T(
                from: JSONReader(bytes: bytes, offset: offset, root: root, codingPath: path + (key.map { [$0] } ?? []), structure: structure))
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
