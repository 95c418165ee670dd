/// A reply's result that reads itself from the text in the one pass that
/// checks the reply, with no `Decoder` and no second pass: for a result
/// read in bulk (`posts.changes`, which every search replica reads post by
/// post; through the Decoder a post's change cost about 35,000
/// instructions). It reads only its own shape: for text of any other (a
/// member it does not know or finds twice, a value of another type, a
/// string that is not Unicode text) it answers nil, and
/// `JSONRPC.decodeResponse` reads the result again through the Decoder,
/// which accepts what the Decoder accepts and names the field it refuses;
/// so does text that is not JSON (a `Failure` thrown here is not
/// reported: the Decoder's read meets it and says it its own way). What
/// it reads is checked as `checkValue` checks it. Bound: what it builds
/// is bounded by the reply it reads, as the Decoder's is (the client's
/// frame limit), and its nesting by its own shape (a post in a change in
/// a page).
protocol JSONDirectRead {
    /// The value at the parser's index (past any space; `depth` counts the
    /// containers it is in), the index left after it; nil, the index
    /// anywhere, when the text is not of its shape.
    static func read(from parser: inout JSONParser, depth: Int) throws(JSONParser.Failure) -> Self?
}

extension JSONParser {
    /// A string, or nil for a value of another kind or a string that is not
    /// Unicode text (noted as an issue, which the Decoder's read then names).
    mutating func directString() throws(Failure) -> String? {
        skipSpace()
        guard peek == UInt8(ascii: "\"") else { return nil }
        let text = try string()
        guard issue == nil else { return nil }
        return text
    }

    /// Null (`.some(nil)`), or what `read` reads (nil when it does not).
    mutating func directNullable<Value>(_ read: (inout JSONParser) throws(Failure) -> Value?) throws(Failure) -> Value?? {
        skipSpace()
        guard peek == UInt8(ascii: "n") else { return try read(&self).map { .some($0) } }
        try literal("null")
        return .some(nil)
    }

    /// A string or null (`.some(nil)`); nil for a value of another kind.
    mutating func directOptionalString() throws(Failure) -> String?? {
        try directNullable { parser throws(Failure) in try parser.directString() }
    }

    /// A member's value read by `read` into `slot`, which must still be
    /// empty (a member found twice is not of the shape); whether it was read.
    mutating func directOnce<Value>(into slot: inout Value?, _ read: (inout JSONParser) throws(Failure) -> Value?) throws(Failure) -> Bool {
        guard slot == nil else { return false }
        slot = try read(&self)
        return slot != nil
    }

    /// An integer that fits 64 bits, or nil for any other value.
    mutating func directInteger() throws(Failure) -> Int64? {
        skipSpace()
        guard let byte = peek, byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte),
            case .integer(let value) = try number()
        else { return nil }
        return value
    }

    /// Each element of the array at `index` (or nil for a value of another
    /// kind), read by `element`, which answers nil when one is not of its
    /// shape; `depth` counts the array.
    mutating func directArray<Element>(
        depth: Int, _ element: (inout JSONParser) throws(Failure) -> Element?
    ) throws(Failure) -> [Element]? {
        skipSpace()
        guard peek == UInt8(ascii: "[") else { return nil }
        guard depth <= Self.maxDepth else { throw .tooDeep(offset: index) }
        index += 1
        var elements: [Element] = []
        skipSpace()
        if peek == UInt8(ascii: "]") {
            index += 1
            return elements
        }
        while true {
            guard let next = try element(&self) else { return nil }
            elements.append(next)
            skipSpace()
            switch peek {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return elements
            default: throw syntax("expected ',' or ']' in an array")
            }
        }
    }

    /// Each member of the object at `index` (false for a value of another
    /// kind), its name given to `member`, which reads its value and
    /// answers false when it is not of the shape (the walk stops there);
    /// `depth` counts the object. Whether every member was read.
    mutating func directObject(depth: Int, _ member: (inout JSONParser, String) throws(Failure) -> Bool) throws(Failure) -> Bool {
        skipSpace()
        guard peek == UInt8(ascii: "{") else { return false }
        var shaped = true
        try members(depth: depth) { parser, name throws(Failure) in
            shaped = try member(&parser, name)
            return shaped
        }
        return shaped
    }
}
