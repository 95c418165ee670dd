#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension JSONParser {
    /// One member of a top-level object, without building the rest: the
    /// gateway and the client read every message's `id` to route or match
    /// it, and a reply may hold megabytes of posts. Values before it are
    /// checked for structure only (not their escapes or UTF-8), and reading
    /// stops at it, so a message cut short after its id still has one.
    /// Nil when the text is not an object or has no such member.
    static func member(_ name: String, in data: Data) -> JSONValue? {
        data.withUnsafeBytes { member(name, in: $0) }
    }

    /// `member(_:in:)` over bytes where they are (a frame's).
    static func member(_ name: String, in bytes: UnsafeRawBufferPointer) -> JSONValue? {
        try? with(bytes: bytes) { parser throws(Failure) -> JSONValue? in
            parser.skipSpace()
            guard parser.peek == UInt8(ascii: "{") else { return nil }
            var found: JSONValue?
            try parser.members(depth: 1) { parser, key throws(Failure) in
                guard key == name else { try parser.skipValue(depth: 1); return true }
                found = try parser.value(depth: 1)
                return false
            }
            return found
        }
    }

    /// Runs `found` at the value of each member named `name` of the object
    /// at `index` (`depth` counts it), skipping every other value; a value
    /// that is not an object is skipped whole. A name given twice is found
    /// twice, so a caller that keeps what it read last reads a request as
    /// the service does (`JSONReader`: the last one stands).
    mutating func eachMember(named name: String, depth: Int, _ found: (inout JSONParser) throws(Failure) -> Void) throws(Failure) {
        skipSpace()
        guard peek == UInt8(ascii: "{") else { return try skipValue(depth: depth - 1) }
        try members(depth: depth) { parser, key throws(Failure) in
            if key == name { try found(&parser) } else { try parser.skipValue(depth: depth) }
            return true
        }
    }

    /// Skips the value at `index`.
    mutating func skipValue(depth: Int) throws(Failure) {
        skipSpace()
        switch peek {
        case UInt8(ascii: "\"")?: try skipString()
        case UInt8(ascii: "{")?:
            // Its names are skipped like any string, never made into one:
            // a page of posts skipped to find the reply's end had a string
            // made for every name of every post.
            try walkMembers(depth: depth + 1, readingNames: false) { parser, _ throws(Failure) in
                try parser.skipValue(depth: depth + 1)
                return true
            }
        case UInt8(ascii: "[")?:
            guard depth + 1 <= Self.maxDepth else { throw .tooDeep(offset: index) }
            index += 1
            skipSpace()
            if peek == UInt8(ascii: "]") { index += 1; return }
            while true {
                try skipValue(depth: depth + 1)
                skipSpace()
                switch peek {
                case UInt8(ascii: ",")?: index += 1
                case UInt8(ascii: "]")?: index += 1; return
                default: throw syntax("expected ',' or ']' in an array")
                }
            }
        default: _ = try value(depth: depth)
        }
    }

    /// Walks an object's members; `index` is at `{`, and `depth` counts it.
    /// `member` reads or skips the value after each name, and says whether
    /// to go on.
    mutating func members(depth: Int, _ member: (inout JSONParser, String) throws(Failure) -> Bool) throws(Failure) {
        try walkMembers(depth: depth, readingNames: true) { parser, name throws(Failure) in try member(&parser, name ?? "") }
    }

    /// `members(depth:_:)`'s walk; without `readingNames`, each name is
    /// skipped (`skipString`), not made into a string, and `member` gets nil.
    private mutating func walkMembers(
        depth: Int, readingNames: Bool, _ member: (inout JSONParser, String?) throws(Failure) -> Bool
    ) throws(Failure) {
        guard depth <= Self.maxDepth else { throw .tooDeep(offset: index) }
        index += 1
        skipSpace()
        if peek == UInt8(ascii: "}") { index += 1; return }
        while true {
            skipSpace()
            guard peek == UInt8(ascii: "\"") else { throw syntax("expected a member name in quotes") }
            var key: String?
            if readingNames { key = try string() } else { try skipString() }
            skipSpace()
            guard peek == UInt8(ascii: ":") else { throw syntax("expected ':' after a member name") }
            index += 1
            guard try member(&self, key) else { return }
            skipSpace()
            switch peek {
            case UInt8(ascii: ",")?: index += 1
            case UInt8(ascii: "}")?: index += 1; return
            default: throw syntax("expected ',' or '}' in an object")
            }
        }
    }

    /// Skips a string, its text unread (`closingQuote`).
    private mutating func skipString() throws(Failure) {
        guard let closing = closingQuote(from: index + 1) else {
            index = bytes.count
            throw syntax("unterminated string")
        }
        index = closing + 1
    }
}
