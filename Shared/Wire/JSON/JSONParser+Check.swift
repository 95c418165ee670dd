extension JSONParser {
    /// Checks the value at `index` as `value(depth:)` would read it, noting
    /// an unusable one at its path, and leaves `index` past it.
    mutating func checkValue(depth: Int) throws(Failure) {
        skipSpace()
        guard let byte = peek else { throw syntax("unexpected end") }
        switch byte {
        case UInt8(ascii: "\""): try checkString()
        case UInt8(ascii: "{"):
            if path.capacity == 0 { path.reserveCapacity(8) }
            let start = index
            var found: [JSONReader.Member]? = notes == nil ? nil : []
            try members(depth: depth + 1) { parser, key throws(Failure) in
                parser.path.append(.key(key))
                parser.skipSpace()
                found?.append(JSONReader.Member(name: key, offset: parser.index))
                try parser.checkValue(depth: depth + 1)
                parser.path.removeLast()
                return true
            }
            if let found { notes?.objects[start] = found }
        case UInt8(ascii: "["): try checkArray(depth: depth + 1)
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try number()
        default: throw syntax("expected a value")
        }
    }

    /// `index` is at `[`; `depth` counts it.
    private mutating func checkArray(depth: Int) throws(Failure) {
        guard depth <= Self.maxDepth else { throw .tooDeep(offset: index) }
        let start = index
        var found: [Int]? = notes == nil ? nil : []
        defer { if let found { notes?.arrays[start] = found } }
        index += 1
        skipSpace()
        if peek == UInt8(ascii: "]") { index += 1; return }
        if path.capacity == 0 { path.reserveCapacity(8) }
        path.append(.index(0))
        var count = 0
        while true {
            path[path.count - 1] = .index(count)
            skipSpace()
            found?.append(index)
            try checkValue(depth: depth)
            count += 1
            skipSpace()
            switch peek {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; path.removeLast(); return
            default: throw syntax("expected ',' or ']' in an array")
            }
        }
    }

    /// A string checked as `string()` reads it, with no text made.
    private mutating func checkString() throws(Failure) {
        index += 1
        let start = index
        var ascii = true
        while true {
            let run = plainRun(from: index)
            index = run.end
            ascii = ascii && run.ascii
            guard let byte = peek else { throw syntax("unterminated string") }
            switch byte {
            case UInt8(ascii: "\""):
                noteUnlessUTF8(start..<index, ascii: ascii)
                index += 1
                return
            case UInt8(ascii: "\\"):
                index += 1
                _ = try escaped()
            default: throw syntax("a control character in a string must be escaped")
            }
        }
    }

    /// Whether `utf8` is well-formed UTF-8 (RFC 3629: no overlong form, no
    /// surrogate, nothing past U+10FFFF), read without making a string.
    static func isUTF8(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        func follows(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }
        var i = 0
        let n = utf8.count
        while i < n {
            let lead = utf8[i]
            switch lead {
            case ..<0x80:
                i += 1
            case 0xC2...0xDF:
                guard i + 1 < n, follows(utf8[i + 1]) else { return false }
                i += 2
            case 0xE0...0xEF:
                guard i + 2 < n, follows(utf8[i + 2]) else { return false }
                let second = utf8[i + 1]
                let range: ClosedRange<UInt8> = lead == 0xE0 ? 0xA0...0xBF : lead == 0xED ? 0x80...0x9F : 0x80...0xBF
                guard range.contains(second) else { return false }
                i += 3
            case 0xF0...0xF4:
                guard i + 3 < n, follows(utf8[i + 2]), follows(utf8[i + 3]) else { return false }
                let second = utf8[i + 1]
                let range: ClosedRange<UInt8> = lead == 0xF0 ? 0x90...0xBF : lead == 0xF4 ? 0x80...0x8F : 0x80...0xBF
                guard range.contains(second) else { return false }
                i += 4
            default:
                return false
            }
        }
        return true
    }
}
