#if canImport(Glibc)
import Glibc
#endif

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
            return text(start..<index, ascii: ascii)
        }
        // Escapes: the text is never longer than what is written for it
        // (`\n` is one byte, `\u00e9` two), so it is made in place, in a
        // string of that many bytes, with no buffer between.
        let closing = closingQuote(from: index) ?? bytes.count
        var failure: Failure?
        let text = String(unsafeUninitializedCapacity: closing - start) { buffer -> Int in
            guard let out = buffer.baseAddress, let from = bytes.baseAddress else { return 0 }
            var written = index - start
            out.update(from: from + start, count: written)
            while index < closing {
                // A run stops only at a quote (the closing one), a backslash or a control byte.
                guard bytes[index] == UInt8(ascii: "\\") else {
                    failure = syntax("a control character in a string must be escaped")
                    return 0
                }
                index += 1
                switch Result(catching: { () throws(Failure) in try escaped() }) {
                case .success(let scalar): written += Self.write(scalar, to: out + written)
                case .failure(let error):
                    failure = error
                    return 0
                }
                let run = plainRun(from: index)
                (out + written).update(from: from + index, count: run.end - index)
                written += run.end - index
                ascii = ascii && run.ascii
                index = run.end
            }
            return written
        }
        if let failure { throw failure }
        guard closing < bytes.count else { throw syntax("unterminated string") }
        index = closing + 1
        // Escapes stand for Unicode text (or U+FFFD, noted): only the bytes
        // written as they are can fail to be UTF-8.
        noteUnlessUTF8(start..<closing, ascii: ascii)
        return text
    }

    /// Where the string whose text starts at `start` ends: the first quote
    /// after an even run of backslashes, found a quote at a time
    /// (`memchr`). Nil when there is none.
    func closingQuote(from start: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var from = start
        while from < bytes.count {
            guard let found = memchr(base + from, Int32(UInt8(ascii: "\"")), bytes.count - from) else { return nil }
            let quote = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
            var backslashes = 0
            while quote - backslashes - 1 >= from, bytes[quote - backslashes - 1] == UInt8(ascii: "\\") { backslashes += 1 }
            if backslashes % 2 == 0 { return quote }
            from = quote + 1
        }
        return nil
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

    /// The text of the bytes at `range`; bytes that are not UTF-8 are
    /// noted, and U+FFFD stands for them. (Not `String(validating:as:)`: it
    /// is generic, and looked up the runtime's type metadata for every
    /// string of every request.)
    private mutating func text(_ range: Range<Int>, ascii: Bool) -> String {
        noteUnlessUTF8(range, ascii: ascii)
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// Notes the string whose bytes are at `range` when they are not UTF-8;
    /// ASCII (`ascii`: every byte below 0x80) is UTF-8 as it stands.
    mutating func noteUnlessUTF8(_ range: Range<Int>, ascii: Bool) {
        if !ascii, !Self.isUTF8(UnsafeBufferPointer(rebasing: bytes[range])) { note(.notText("it holds bytes that are not UTF-8")) }
    }

    /// The scalar an escape stands for; `index` is just past its backslash.
    mutating func escaped() throws(Failure) -> UInt32 {
        guard let byte = peek else { throw syntax("unterminated string") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return UInt32(byte)
        case UInt8(ascii: "b"): return 0x08
        case UInt8(ascii: "f"): return 0x0C
        case UInt8(ascii: "n"): return 0x0A
        case UInt8(ascii: "r"): return 0x0D
        case UInt8(ascii: "t"): return 0x09
        case UInt8(ascii: "u"): return try unicodeEscape()
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

    /// A scalar (never a surrogate) as UTF-8 at `out`; how many bytes.
    private static func write(_ scalar: UInt32, to out: UnsafeMutablePointer<UInt8>) -> Int {
        switch scalar {
        case ..<0x80:
            out[0] = UInt8(scalar)
            return 1
        case ..<0x800:
            out[0] = UInt8(0xC0 | scalar >> 6)
            out[1] = UInt8(0x80 | scalar & 0x3F)
            return 2
        case ..<0x10000:
            out[0] = UInt8(0xE0 | scalar >> 12)
            out[1] = UInt8(0x80 | scalar >> 6 & 0x3F)
            out[2] = UInt8(0x80 | scalar & 0x3F)
            return 3
        default:
            out[0] = UInt8(0xF0 | scalar >> 18)
            out[1] = UInt8(0x80 | scalar >> 12 & 0x3F)
            out[2] = UInt8(0x80 | scalar >> 6 & 0x3F)
            out[3] = UInt8(0x80 | scalar & 0x3F)
            return 4
        }
    }
}
