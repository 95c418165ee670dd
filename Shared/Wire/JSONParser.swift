import Foundation

/// Parses a request's bytes into a `JSONValue` (RFC 8259), and says where
/// in the document a failure is: a string that is not Unicode text (a lone
/// surrogate escape, bytes that are not UTF-8) is reported with its dotted
/// path (`params.post.title`), so it is answered as an invalid field rather
/// than as a document that does not parse. Foundation's parser rejects the
/// whole document for it, with no place named.
struct JSONParser {
    enum Failure: Error, Equatable {
        /// Not JSON at all, at byte `offset`.
        case syntax(offset: Int, detail: String)
        /// Valid JSON, but the string at `path` is not text.
        case notText(path: String, detail: String)
    }

    static let maxDepth = 256

    let bytes: UnsafeRawBufferPointer
    var index = 0
    var path: [String] = []

    static func parse(_ data: Data) throws(Failure) -> JSONValue {
        let result: Result<JSONValue, Failure> = data.withUnsafeBytes { buffer in
            var parser = JSONParser(bytes: buffer)
            return Result { () throws(Failure) -> JSONValue in
                let value = try parser.value(depth: 0)
                parser.skipSpace()
                guard parser.index == buffer.count else { throw parser.syntax("unexpected text after the end") }
                return value
            }
        }
        return try result.get()
    }

    private init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    func syntax(_ detail: String) -> Failure { .syntax(offset: index, detail: detail) }

    var dottedPath: String {
        path.reduce(into: "") { name, part in name += part.hasPrefix("[") || name.isEmpty ? part : ".\(part)" }
    }

    private mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private mutating func expect(_ literal: String) throws(Failure) {
        for byte in literal.utf8 {
            guard index < bytes.count, bytes[index] == byte else { throw syntax("expected \(literal)") }
            index += 1
        }
    }

    private mutating func value(depth: Int) throws(Failure) -> JSONValue {
        guard depth < Self.maxDepth else { throw syntax("nested more than \(Self.maxDepth) deep") }
        skipSpace()
        guard index < bytes.count else { throw syntax("unexpected end") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        default: return .number(try number())
        }
    }

    private mutating func object(depth: Int) throws(Failure) -> JSONValue {
        index += 1
        var members: [String: JSONValue] = [:]
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw syntax("expected a member name") }
            let key = try string()
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw syntax("expected ':'") }
            index += 1
            path.append(key)
            members[key] = try value(depth: depth + 1)
            path.removeLast()
            skipSpace()
            guard index < bytes.count else { throw syntax("unexpected end in an object") }
            defer { index += 1 }
            if bytes[index] == UInt8(ascii: "}") { return .object(members) }
            guard bytes[index] == UInt8(ascii: ",") else { throw syntax("expected ',' or '}'") }
        }
    }

    private mutating func array(depth: Int) throws(Failure) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
        while true {
            path.append("[\(elements.count)]")
            elements.append(try value(depth: depth + 1))
            path.removeLast()
            skipSpace()
            guard index < bytes.count else { throw syntax("unexpected end in an array") }
            defer { index += 1 }
            if bytes[index] == UInt8(ascii: "]") { return .array(elements) }
            guard bytes[index] == UInt8(ascii: ",") else { throw syntax("expected ',' or ']'") }
        }
    }

    private mutating func number() throws(Failure) -> Double {
        let start = index
        func digits() -> Int {
            let from = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            return index - from
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integer = index
        guard digits() > 0, !(bytes[integer] == 0x30 && index - integer > 1) else { throw syntax("expected a value") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw syntax("expected digits after '.'") }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw syntax("expected digits in an exponent") }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw syntax("the number \(text) is out of range") }
        return value
    }
}
