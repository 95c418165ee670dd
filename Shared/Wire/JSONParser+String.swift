extension JSONParser {
    /// A string's text; `index` is at its opening quote.
    mutating func string() throws(Failure) -> String {
        index += 1
        let start = index
        // Most strings have no escapes: their bytes are the text.
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\"), bytes[index] >= 0x20 { index += 1 }
        guard index < bytes.count else { throw syntax("unterminated string") }
        if bytes[index] == UInt8(ascii: "\"") {
            defer { index += 1 }
            return try text(Array(bytes[start..<index]))
        }
        var utf8 = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return try text(utf8)
            case UInt8(ascii: "\\"): try escape(into: &utf8)
            case ..<0x20: throw syntax("a control character must be escaped in a string")
            default: utf8.append(byte)
            }
        }
        throw syntax("unterminated string")
    }

    private func text(_ utf8: [UInt8]) throws(Failure) -> String {
        guard let text = String(validating: utf8, as: UTF8.self) else { throw .notText(path: dottedPath, detail: "it holds bytes that are not UTF-8") }
        return text
    }

    private mutating func escape(into utf8: inout [UInt8]) throws(Failure) {
        guard index < bytes.count else { throw syntax("unterminated escape") }
        let byte = bytes[index]
        index += 1
        let simple: [UInt8: UInt8] = [0x22: 0x22, 0x5C: 0x5C, 0x2F: 0x2F, 0x62: 0x08, 0x66: 0x0C, 0x6E: 0x0A, 0x72: 0x0D, 0x74: 0x09]
        if let replacement = simple[byte] { utf8.append(replacement); return }
        guard byte == UInt8(ascii: "u") else { throw syntax("unknown escape") }
        var scalar = try hex4()
        if (0xD800...0xDBFF).contains(scalar) {
            // A high surrogate must be followed by an escaped low one.
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else { throw loneSurrogate(scalar) }
            index += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw loneSurrogate(scalar) }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(scalar) {
            throw loneSurrogate(scalar)
        }
        utf8.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
    }

    private func loneSurrogate(_ scalar: UInt32) -> Failure {
        .notText(path: dottedPath, detail: "it holds a lone surrogate \\u\(String(scalar, radix: 16, uppercase: true))")
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw syntax("a \\u escape needs four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Character(Unicode.Scalar(bytes[index])).hexDigitValue else { throw syntax("a \\u escape needs four hex digits") }
            value = value * 16 + UInt32(digit)
            index += 1
        }
        return value
    }
}
