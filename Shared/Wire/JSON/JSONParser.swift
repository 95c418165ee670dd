import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Parses JSON text (RFC 8259) into a `JSONValue`, written for this wire
/// rather than borrowed from Foundation, because Foundation's parser
/// (1) reads every number as a double or fails on it with no field named,
/// and (2) refuses the whole document for one lone surrogate escape.
/// Here integers stay exact, and a value that parses but cannot be used
/// (a string that is not Unicode text, a number too large for a double)
/// is noted with its dotted path (`params.post.title`) while parsing goes
/// on, so it can be answered as an invalid field of a request whose id is
/// known. Only text that is not JSON at all is a `Failure`.
struct JSONParser {
    enum Failure: Error, Equatable {
        /// Not JSON, at byte `offset`.
        case syntax(offset: Int, detail: String)
        /// Arrays and objects nested deeper than `maxDepth`: refused
        /// before the recursion could exhaust the stack.
        case tooDeep(offset: Int)
    }

    /// The first value that parsed but cannot be used, and where it is.
    struct Issue: Equatable {
        var path: String
        var reason: InvalidField.Reason
    }

    enum PathComponent {
        case key(String)
        case index(Int)
    }

    static let maxDepth = 256

    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    /// Where the parser is; kept as components (cheap to push and pop)
    /// and rendered as text only when an issue is noted.
    var path: [PathComponent] = []
    var issue: Issue?
    /// When set, a check notes where each container's values start
    /// (`JSONStructure`), for reading without skipping.
    var notes: JSONStructure.Notes?

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Runs `body` over `bytes` (a frame's, read where they are).
    static func with<T>(bytes: UnsafeRawBufferPointer, _ body: (inout JSONParser) throws(Failure) -> T) throws(Failure) -> T {
        var parser = JSONParser(bytes: bytes.bindMemory(to: UInt8.self))
        return try body(&parser)
    }

    /// The whole document in `bytes` (read where they are), which must be
    /// one value and nothing after it.
    static func parse(bytes: UnsafeRawBufferPointer) throws(Failure) -> (value: JSONValue, issue: Issue?) {
        try with(bytes: bytes) { parser throws(Failure) in
            let value = try parser.value(depth: 0)
            try parser.expectEnd()
            return (value, parser.issue)
        }
    }

    func syntax(_ detail: String) -> Failure { .syntax(offset: index, detail: detail) }

    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    mutating func expectEnd() throws(Failure) {
        skipSpace()
        guard index == bytes.count else { throw syntax("unexpected text after the end") }
    }

    /// Notes the first unusable value, at the current path.
    mutating func note(_ reason: InvalidField.Reason) {
        guard issue == nil else { return }
        let text = path.reduce(into: "") { text, component in
            switch component {
            case .key(let key): text += text.isEmpty ? key : ".\(key)"
            case .index(let index): text += "[\(index)]"
            }
        }
        issue = Issue(path: text, reason: reason)
    }

    mutating func value(depth: Int) throws(Failure) -> JSONValue {
        skipSpace()
        guard let byte = peek else { throw syntax("unexpected end") }
        switch byte {
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw syntax("expected a value")
        }
    }

    mutating func literal(_ word: StaticString) throws(Failure) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes.count - index >= expected.count else { throw syntax("expected a value") }
        for offset in 0..<expected.count where bytes[index + offset] != expected[offset] { throw syntax("expected a value") }
        index += expected.count
    }

    /// `index` is at `{`; `depth` counts it. The member walk is the one
    /// `member(_:in:)` and `skipValue` use too.
    private mutating func object(depth: Int) throws(Failure) -> JSONValue {
        // Room for a request's or a post's members without growing.
        var members = [String: JSONValue](minimumCapacity: 6)
        try memberValues(depth: depth) { members[$0] = $1 }
        return .object(members)
    }

    /// Reads each member's value of the object at `index` (at `{`; `depth`
    /// counts it), its key on the path while it is read, and hands both to
    /// `each`.
    mutating func memberValues(depth: Int, _ each: (String, JSONValue) -> Void) throws(Failure) {
        // Room for a request's depth, made when the first object opens, so
        // a walk that builds nothing (`member(_:in:)`) allocates nothing.
        if path.capacity == 0 { path.reserveCapacity(8) }
        try members(depth: depth) { parser, key throws(Failure) in
            parser.path.append(.key(key))
            each(key, try parser.value(depth: depth))
            parser.path.removeLast()
            return true
        }
    }

    /// `index` is at `[`; `depth` counts it.
    private mutating func array(depth: Int) throws(Failure) -> JSONValue {
        guard depth <= Self.maxDepth else { throw .tooDeep(offset: index) }
        index += 1
        var elements: [JSONValue] = []
        skipSpace()
        if peek == UInt8(ascii: "]") { index += 1; return .array(elements) }
        path.append(.index(0))
        while true {
            path[path.count - 1] = .index(elements.count)
            elements.append(try value(depth: depth))
            skipSpace()
            switch peek {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; path.removeLast(); return .array(elements)
            default: throw syntax("expected ',' or ']' in an array")
            }
        }
    }
}
