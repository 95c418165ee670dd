extension JSONParser {
    /// A number; `index` is at its `-` or first digit. One written without
    /// a fraction or exponent that fits 64 bits is an exact `.integer`,
    /// read digit by digit; any other is a double. One too large for a
    /// double (`1e400`) is noted, as it was written, and stands as null.
    mutating func number() throws(Failure) -> JSONValue {
        let start = index
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let integerStart = index
        var magnitude: UInt64 = 0
        var overflow = false
        while let digit = digitHere() {
            let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(digit))
            (magnitude, overflow) = (sum, overflow || o1 || o2)
            index += 1
        }
        guard index > integerStart else { throw syntax("expected a digit") }
        guard bytes[integerStart] != UInt8(ascii: "0") || index - integerStart == 1 else {
            throw .syntax(offset: integerStart, detail: "a number must not start with 0")
        }
        var whole = true
        if peek == UInt8(ascii: ".") {
            index += 1
            guard skipDigits() else { throw syntax("expected a digit after '.'") }
            whole = false
        }
        if let byte = peek, byte | 0x20 == UInt8(ascii: "e") {
            index += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
            guard skipDigits() else { throw syntax("expected a digit in an exponent") }
            whole = false
        }
        if whole, !overflow {
            if !negative, magnitude <= UInt64(Int64.max) { return .integer(Int64(magnitude)) }
            if negative, magnitude <= UInt64(Int64.max) + 1 { return .integer(Int64(bitPattern: 0 &- magnitude)) }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            note(.malformed("is a number too large to read (got \(text))"))
            return .null
        }
        return .number(value)
    }

    private func digitHere() -> UInt8? {
        guard index < bytes.count else { return nil }
        let digit = bytes[index] &- UInt8(ascii: "0")
        return digit < 10 ? digit : nil
    }

    /// Skips digits; whether there was at least one.
    private mutating func skipDigits() -> Bool {
        let from = index
        while digitHere() != nil { index += 1 }
        return index > from
    }
}
