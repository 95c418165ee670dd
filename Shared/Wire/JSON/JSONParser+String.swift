extension JSONParser {
    /// A string's text; `index` is at its opening quote. Text that is not
    /// Unicode (bytes that are not UTF-8, a lone surrogate escape) is noted
    /// at the current path and kept with U+FFFD in its place, so parsing
    /// goes on and the request's id can still be read.
    mutating func string() throws(Failure) -> String {
        index += 1
        let start = index
        // Most strings have no escapes: their bytes are the text, unchanged.
        var (end, ascii) = plainRun(from: index)
        index = end
        guard index < bytes.count else { throw syntax("unterminated string") }
        if bytes[index] == UInt8(ascii: "\"") {
            defer { index += 1 }
            return text(UnsafeBufferPointer(rebasing: bytes[start..<index]), ascii: ascii)
        }
        var utf8: [UInt8] = []
        utf8.reserveCapacity(index - start + 16)
        utf8.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        // The text between escapes goes across in runs, not byte by byte.
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return utf8.withUnsafeBufferPointer { text($0, ascii: ascii) }
            case UInt8(ascii: "\\"):
                try escape(into: &utf8)
                // An escape may stand for a character past ASCII (`\u00e9`).
                let escapedASCII = (utf8.last ?? 0) < 0x80
                let run = plainRun(from: index)
                utf8.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<run.end]))
                ascii = ascii && escapedASCII && run.ascii
                index = run.end
            default: index -= 1; throw syntax("a control character in a string must be escaped")
            }
        }
        throw syntax("unterminated string")
    }

    /// From `start`, where the first quote, backslash or control byte is
    /// (or the end), and whether every byte before it is ASCII. Eight bytes
    /// are looked at a time while none of them is one of those.
    @inline(__always)
    func plainRun(from start: Int) -> (end: Int, ascii: Bool) {
        var index = start
        var high: UInt64 = 0
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            let ones: UInt64 = 0x0101_0101_0101_0101
            while index + 8 <= bytes.count {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                let quotes = word ^ (ones &* 0x22)
                let backslashes = word ^ (ones &* 0x5C)
                // A byte that is zero after the xor, or below 0x20, sets its top bit here.
                let special = ((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes) | ((word &- ones &* 0x20) & ~word)
                if special & (ones &* 0x80) != 0 { break }
                high |= word
                index += 8
            }
        }
        var bits: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            bits |= byte
            index += 1
        }
        return (index, high & 0x8080_8080_8080_8080 == 0 && bits < 0x80)
    }

    /// The text of `utf8`; bytes that are not UTF-8 are noted, and U+FFFD
    /// stands for them. (Not `String(validating:as:)`: it is generic, and
    /// looked up the runtime's type metadata for every string of every
    /// request.)
    private mutating func text(_ utf8: UnsafeBufferPointer<UInt8>, ascii: Bool) -> String {
        // ASCII is UTF-8 as it stands.
        if !ascii, !Self.isUTF8(utf8) { note(.notText("it holds bytes that are not UTF-8")) }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// `index` is just past the backslash.
    private mutating func escape(into utf8: inout [UInt8]) throws(Failure) {
        guard let byte = peek else { throw syntax("unterminated string") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(byte)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"): Self.appendUTF8(try unicodeEscape(), to: &utf8)
        default: index -= 1; throw syntax("unknown escape '\\\(Character(Unicode.Scalar(byte)))' in a string")
        }
    }

    /// The scalar of `XXXX` after `\u`, joining a surrogate pair written as
    /// two escapes; a surrogate without its partner is noted, and U+FFFD
    /// stands for it.
    mutating func unicodeEscape() throws(Failure) -> UInt32 {
        let unit = try hex4(at: index)
        index += 4
        switch unit {
        case 0xD800...0xDBFF:
            if bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                let low = try hex4(at: index + 2)
                if (0xDC00...0xDFFF).contains(low) {
                    index += 6
                    return 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                }
            }
            return loneSurrogate(unit)
        case 0xDC00...0xDFFF:
            return loneSurrogate(unit)
        default:
            return unit
        }
    }

    private mutating func loneSurrogate(_ unit: UInt32) -> UInt32 {
        note(.notText("it holds a lone surrogate \\u\(String(unit, radix: 16, uppercase: true))"))
        return 0xFFFD
    }

    private func hex4(at start: Int) throws(Failure) -> UInt32 {
        guard bytes.count - start >= 4 else { throw syntax("a \\u escape needs four hex digits") }
        var value: UInt32 = 0
        for byte in bytes[start..<(start + 4)] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw syntax("a \\u escape needs four hex digits")
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// A scalar (never a surrogate) as UTF-8.
    private static func appendUTF8(_ scalar: UInt32, to utf8: inout [UInt8]) {
        switch scalar {
        case ..<0x80:
            utf8.append(UInt8(scalar))
        case ..<0x800:
            utf8.append(UInt8(0xC0 | scalar >> 6))
            utf8.append(UInt8(0x80 | scalar & 0x3F))
        case ..<0x10000:
            utf8.append(UInt8(0xE0 | scalar >> 12))
            utf8.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            utf8.append(UInt8(0x80 | scalar & 0x3F))
        default:
            utf8.append(UInt8(0xF0 | scalar >> 18))
            utf8.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            utf8.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            utf8.append(UInt8(0x80 | scalar & 0x3F))
        }
    }
}
