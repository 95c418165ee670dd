/// The bytes written so far, and the containers still open, innermost last.
struct JSONText {
    private(set) var bytes: [UInt8] = []
    private var open: [(close: UInt8, hasElement: Bool)] = []

    /// Room for a reply of one post and its envelope, and for the
    /// containers a reply nests, without growing.
    init() {
        bytes.reserveCapacity(1024)
        open.reserveCapacity(8)
    }

    mutating func append(_ more: some Sequence<UInt8>) { bytes.append(contentsOf: more) }

    mutating func close(deeperThan depth: Int) {
        while open.count > depth { bytes.append(open.removeLast().close) }
    }

    mutating func openContainer(_ start: UInt8, _ end: UInt8, depth: Int) {
        close(deeperThan: depth)
        bytes.append(start)
        open.append((end, false))
    }

    /// See `JSONOutput.reopenObject`.
    mutating func reopenObject(depth: Int) -> Bool {
        if open.count > depth { return open[depth].close == UInt8(ascii: "}") }
        guard open.count == depth, bytes.count >= 2, bytes[bytes.count - 2] == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else {
            return false
        }
        bytes.removeLast()
        open.append((UInt8(ascii: "}"), false))
        return true
    }

    mutating func beginElement(depth: Int) {
        close(deeperThan: depth)
        guard depth > 0, depth <= open.count else { return }
        if open[depth - 1].hasElement { bytes.append(UInt8(ascii: ",")) }
        open[depth - 1].hasElement = true
    }

    mutating func beginMember(_ key: String, depth: Int) {
        beginElement(depth: depth)
        writeString(key)
        bytes.append(UInt8(ascii: ":"))
    }

    /// As `beginMember(_:depth:)`, for a key named in the code: plain
    /// ASCII that needs no escape, so it goes in as it is.
    mutating func beginMember(plain key: StaticString, depth: Int) {
        beginElement(depth: depth)
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// `[[lower,upper],…]`, what `Range<Int>`'s conformance writes for each.
    mutating func writeRanges(_ ranges: [Range<Int>]) {
        bytes.append(UInt8(ascii: "["))
        for (index, range) in ranges.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "["))
            append(String(range.lowerBound).utf8)
            bytes.append(UInt8(ascii: ","))
            append(String(range.upperBound).utf8)
            bytes.append(UInt8(ascii: "]"))
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// An object whose members are all strings, at `depth`, written as a
    /// keyed container writes it: a nil member is left out, as a
    /// synthesized conformance's `encodeIfPresent` leaves it.
    mutating func writeObject(strings members: KeyValuePairs<StaticString, String?>, depth: Int) {
        openContainer(UInt8(ascii: "{"), UInt8(ascii: "}"), depth: depth)
        for case let (key, value?) in members {
            beginMember(plain: key, depth: depth + 1)
            writeString(value)
        }
        close(deeperThan: depth)
    }

    mutating func writeString(_ string: String) {
        var string = string
        string.withUTF8 { writeEscaped($0) }
    }

    /// Runs of bytes that need no escape go in whole; eight bytes are
    /// looked at a time (`needsEscape`) while none of them needs one. No
    /// room is reserved for the string: `reserveCapacity` grows an array to
    /// exactly what is asked, so doing it for every string of a long reply
    /// copied the reply again and again (the same appends alone, 20,000
    /// strings of 2,000 bytes: 24 s, against 0.07 s growing as appends do).
    private mutating func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        guard let base = utf8.baseAddress else { bytes.append(UInt8(ascii: "\"")); return }
        let raw = UnsafeRawPointer(base)
        var run = 0, index = 0
        while index < utf8.count {
            if index + 8 <= utf8.count, !Self.needsEscape(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                index += 8
                continue
            }
            let byte = utf8[index]
            index += 1
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<(index - 1)]))
            run = index
            bytes.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
            case 0x0A: bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "t"))
            case 0x08: bytes.append(UInt8(ascii: "b"))
            case 0x0C: bytes.append(UInt8(ascii: "f"))
            default:
                bytes.append(contentsOf: Self.unicodeEscape)
                bytes.append(Self.hex[Int(byte >> 4)])
                bytes.append(Self.hex[Int(byte & 0xF)])
            }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
        bytes.append(UInt8(ascii: "\""))
    }

    /// Whether any of the eight bytes in `word` is below 0x20, a quote or
    /// a backslash (each test is exact for the word as a whole: it may
    /// mark the wrong byte, never a word that has none).
    private static func needsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ word: UInt64) -> Bool { (word &- ones) & ~word & highs != 0 }
        let below0x20 = (word &- ones &* 0x20) & ~word & highs != 0
        return below0x20 || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C))
    }

    private static let hex = Array("0123456789abcdef".utf8)
    /// What follows the backslash of `\u00XX`.
    private static let unicodeEscape = Array("u00".utf8)
    static let null = Array("null".utf8)
    static let `true` = Array("true".utf8)
    static let `false` = Array("false".utf8)
    static let emptyObject = Array("{}".utf8)
}
