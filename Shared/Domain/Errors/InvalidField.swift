/// A value that breaks a rule: which field, and how, with the numbers.
public struct InvalidField: Sendable, Equatable, CustomStringConvertible {
    /// The field as the caller named it: `title`, `posts[3].uid`, `line 7.title`.
    public var field: String
    public var reason: Reason

    public init(_ field: String, _ reason: Reason) { (self.field, self.reason) = (field, reason) }

    public enum Reason: Sendable, Equatable {
        case missing
        case empty
        case tooLong(max: Int, actual: Int, unit: LengthUnit)
        /// A number outside `min...max`; `actual` as it was written (it may not fit any integer type).
        case outOfRange(min: Int64, max: Int64, actual: String)
        /// `actual` is a short rendering of what was given: `1.5`, `null`, `an object`.
        case wrongType(expected: ValueKind, actual: String)
        case notUUID(String)
        case notDate(String)
        case dateOutOfRange(String)
        /// A character the store cannot keep exactly (U+0000).
        case forbiddenCharacter(UInt32)
        /// Not text: a lone surrogate, bytes that are not UTF-8.
        case notText(String)
        case unknownCursor(String)
        case unreadable(path: String)
        /// Anything else, in words.
        case malformed(String)
    }

    public var description: String { "\(field) \(rule)" }

    /// The rule broken, in words, without the field's name.
    public var rule: String {
        switch reason {
        case .missing: "is required"
        case .empty: "must not be empty"
        case .tooLong(let max, let actual, let unit): "must be at most \(max) \(unit.rawValue) (it has \(actual))"
        case .outOfRange(let min, let max, let actual): "must be an integer from \(min) to \(max) (got \(actual))"
        case .wrongType(let expected, let actual): "must be \(expected.phrase) (got \(actual))"
        case .notUUID(let text): "must be a UUID such as 7F3C2A4E-0B6D-4C1A-9E55-3D2B1A0C9F11 (got '\(text)')"
        case .notDate(let text): "must be an ISO 8601 date such as 2026-11-22T12:00:00.000Z (got '\(text)')"
        case .dateOutOfRange(let text): "must be from \(PostDate.earliestText) to \(PostDate.latestText) (got '\(text)')"
        case .forbiddenCharacter(let scalar): "must not contain the character U+\(String(scalar, radix: 16, uppercase: true).leftPadded(to: 4))"
        case .notText(let detail): "must be Unicode text (\(detail))"
        case .unknownCursor(let text): "is not a cursor this store handed out ('\(text)')"
        case .unreadable(let path): "cannot be read from '\(path)'"
        case .malformed(let detail): detail
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
