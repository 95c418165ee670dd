import Domain

/// -32602's `data` beside `field`: `reason` names the case of
/// `InvalidField.Reason`, the others carry its values. Bounds of
/// `outOfRange` travel as text: Int64's ends do not survive a double,
/// which is how most JSON readers take numbers.
enum InvalidReasonData {
    static func encode(_ reason: InvalidField.Reason) -> [String: JSONValue] {
        switch reason {
        case .missing: ["reason": "missing"]
        case .empty: ["reason": "empty"]
        case .tooLong(let max, let actual, let unit):
            ["reason": "tooLong", "max": .integer(Int64(max)), "actual": .integer(Int64(actual)), "unit": .string(unit.rawValue)]
        case .outOfRange(let min, let max, let actual):
            ["reason": "outOfRange", "min": .string(String(min)), "max": .string(String(max)), "actual": .string(actual)]
        case .wrongType(let expected, let actual): ["reason": "wrongType", "expected": .string(expected.rawValue), "actual": .string(actual)]
        case .notUUID(let text): ["reason": "notUUID", "actual": .string(text)]
        case .notDate(let text): ["reason": "notDate", "actual": .string(text)]
        case .dateOutOfRange(let text): ["reason": "dateOutOfRange", "actual": .string(text)]
        case .forbiddenCharacter(let scalar): ["reason": "forbiddenCharacter", "codePoint": .integer(Int64(scalar))]
        case .notText(let detail): ["reason": "notText", "detail": .string(detail)]
        case .unknownCursor(let text): ["reason": "unknownCursor", "actual": .string(text)]
        case .unreadable(let path): ["reason": "unreadable", "path": .string(path)]
        case .malformed(let detail): ["reason": "malformed", "detail": .string(detail)]
        }
    }

    static func decode(_ data: JSONValue) -> InvalidField.Reason? {
        let actual = data["actual"]?.stringValue
        switch data["reason"]?.stringValue {
        case "missing": return .missing
        case "empty": return .empty
        case "tooLong":
            guard let max = data["max"]?.intValue, let count = data["actual"]?.intValue,
                let unit = data["unit"]?.stringValue.flatMap(LengthUnit.init(rawValue:))
            else { return nil }
            return .tooLong(max: max, actual: count, unit: unit)
        case "outOfRange":
            guard let min = data["min"]?.stringValue.flatMap({ Int64($0) }), let max = data["max"]?.stringValue.flatMap({ Int64($0) }),
                let actual
            else { return nil }
            return .outOfRange(min: min, max: max, actual: actual)
        case "wrongType":
            guard let expected = data["expected"]?.stringValue.flatMap(ValueKind.init(rawValue:)), let actual else { return nil }
            return .wrongType(expected: expected, actual: actual)
        case "notUUID": return actual.map { .notUUID($0) }
        case "notDate": return actual.map { .notDate($0) }
        case "dateOutOfRange": return actual.map { .dateOutOfRange($0) }
        case "forbiddenCharacter": return data["codePoint"]?.int64Value.flatMap(UInt32.init(exactly:)).map { .forbiddenCharacter($0) }
        case "notText": return data["detail"]?.stringValue.map { .notText($0) }
        case "unknownCursor": return actual.map { .unknownCursor($0) }
        case "unreadable": return data["path"]?.stringValue.map { .unreadable(path: $0) }
        case "malformed": return data["detail"]?.stringValue.map { .malformed($0) }
        default: return nil
        }
    }
}
