#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Dates as posts keep them: whole milliseconds from 0001-01-01 to
/// 9999-12-31 (UTC), written in ISO 8601 as `2026-11-22T12:00:00.000Z`.
/// Formatting and parsing are exact integer arithmetic on milliseconds
/// (Foundation's formatter truncated `.999` to `.998` near the range's end).
public enum PostDate {
    /// 0001-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z, in ms since 1970.
    public static let earliest: Int64 = -62_135_596_800_000
    public static let latest: Int64 = 253_402_300_799_999
    public static let earliestText = "0001-01-01T00:00:00.000Z"
    public static let latestText = "9999-12-31T23:59:59.999Z"

    /// The date's milliseconds since 1970, rounded to the nearest.
    public static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    public static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// The date rounded to a whole millisecond.
    public static func rounded(_ date: Date) -> Date { self.date(milliseconds: milliseconds(date)) }

    public static func inRange(_ date: Date) -> Bool { (earliest...latest).contains(milliseconds(date)) }

    /// `2026-11-22T12:00:00.000Z`. A date outside the range (only ever
    /// shown in an error) gets a signed year of more digits: `+10000-01-01…`.
    public static func format(_ date: Date) -> String {
        let ms = milliseconds(date)
        let (days, msOfDay) = floorDivide(ms, 86_400_000)
        let (year, month, day) = civil(fromDays: days)
        let (hour, rest) = (msOfDay / 3_600_000, msOfDay % 3_600_000)
        let (minute, rest2) = (rest / 60_000, rest % 60_000)
        let (second, millisecond) = (rest2 / 1000, rest2 % 1000)
        guard (1...9999).contains(year) else {
            let yearText = year < 0 ? "-" + pad(-year, 4) : year == 0 ? "0000" : "+" + pad(year, 4)
            return "\(yearText)-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)).\(pad(millisecond, 3))Z"
        }
        // The usual case, written digit by digit: every reply with a post
        // holds two dates, and string interpolation cost more than the rest.
        return String(unsafeUninitializedCapacity: 24) { output in
            var position = 0
            func put(_ value: Int64, _ width: Int, then separator: Unicode.Scalar) {
                var value = value
                // A plain loop: `stride` copied its index through generic
                // value witnesses, about 200 instructions a date.
                var index = position + width - 1
                while index >= position {
                    output[index] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                    index -= 1
                }
                output[position + width] = UInt8(ascii: separator)
                position += width + 1
            }
            put(year, 4, then: "-")
            put(month, 2, then: "-")
            put(day, 2, then: "T")
            put(hour, 2, then: ":")
            put(minute, 2, then: ":")
            put(second, 2, then: ".")
            put(millisecond, 3, then: "Z")
            return position
        }
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`; more than three
    /// fraction digits round to the millisecond. `field` names the value in
    /// the error.
    public static func parse(_ text: String, field: @autoclosure () -> String) throws(PostsError) -> Date {
        var text = text
        guard
            let ms = text.withUTF8({ bytes in
                var scanner = DateScanner(bytes)
                return scanner.milliseconds()
            })
        else { throw .invalid(field(), .notDate(text)) }
        guard (earliest...latest).contains(ms) else { throw .invalid(field(), .dateOutOfRange(text)) }
        return date(milliseconds: ms)
    }

    /// Reads one date's text from the start: a struct whose position moves
    /// as it reads (no array, no closure over a captured position, which
    /// cost a run-time exclusivity check at every digit).
    private struct DateScanner {
        let s: UnsafeBufferPointer<UInt8>
        var i = 0

        init(_ s: UnsafeBufferPointer<UInt8>) { self.s = s }

        mutating func number(_ digits: Int) -> Int64? {
            guard i + digits <= s.count else { return nil }
            var value: Int64 = 0
            for byte in s[i..<(i + digits)] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - 48)
            }
            i += digits
            return value
        }

        mutating func expect(_ byte: UInt8) -> Bool {
            guard i < s.count, s[i] == byte else { return false }
            i += 1
            return true
        }

        mutating func milliseconds() -> Int64? {
            guard let year = number(4), expect(UInt8(ascii: "-")), let month = number(2), expect(UInt8(ascii: "-")), let day = number(2),
                i < s.count, s[i] == UInt8(ascii: "T") || s[i] == UInt8(ascii: "t") || s[i] == UInt8(ascii: " ")
            else { return nil }
            i += 1
            guard let hour = number(2), expect(UInt8(ascii: ":")), let minute = number(2), expect(UInt8(ascii: ":")), let second = number(2),
                (1...12).contains(month), (1...PostDate.daysIn(month: month, year: year)).contains(day),
                hour < 24, minute < 60, second < 60
            else { return nil }
            var fraction: Int64 = 0
            if expect(UInt8(ascii: ".")) {
                var digits = 0
                var scale: Int64 = 100
                var roundUp = false
                while i < s.count, (48...57).contains(s[i]) {
                    let digit = Int64(s[i] - 48)
                    if digits < 3 { fraction += digit * scale; scale /= 10 } else if digits == 3 { roundUp = digit >= 5 }
                    digits += 1
                    i += 1
                }
                guard digits > 0 else { return nil }
                if roundUp { fraction += 1 }
            }
            var offset: Int64 = 0
            if expect(UInt8(ascii: "Z")) || expect(UInt8(ascii: "z")) {
            } else if i < s.count, s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-") {
                let sign: Int64 = s[i] == UInt8(ascii: "-") ? -1 : 1
                i += 1
                guard let hours = number(2), expect(UInt8(ascii: ":")), let minutes = number(2), hours < 24, minutes < 60 else { return nil }
                offset = sign * (hours * 60 + minutes) * 60_000
            } else {
                return nil
            }
            guard i == s.count else { return nil }
            let days = PostDate.days(fromCivil: year, month, day)
            return days * 86_400_000 + ((hour * 60 + minute) * 60 + second) * 1000 + fraction - offset
        }
    }

    private static func pad(_ value: Int64, _ width: Int) -> String { String(value).leftPadded(to: width) }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let q = a / b, r = a % b
        return r < 0 ? (q - 1, r + b) : (q, r)
    }

    private static func isLeap(_ year: Int64) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date, counted in
    /// 400-year eras (146,097 days each) of years that start in March.
    private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let (era, yearOfEra) = floorDivide(y, 400)
        let monthFromMarch = (month + 9) % 12
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let (era, dayOfEra) = floorDivide(days + 719_468, 146_097)
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
