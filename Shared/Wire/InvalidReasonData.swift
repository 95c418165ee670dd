import Domain

/// An invalid field's reason as `data` fields beside `field`: `reason`
/// names the case, the others carry its values.
enum InvalidReasonData {
    static func encode(_ reason: InvalidField.Reason) -> [String: JSONValue] {
        switch reason {
        case .missing: ["reason": "missing"]
        case .empty: ["reason": "empty"]
        case .tooLong(let max, let actual, let unit):
            ["reason": "tooLong", "max": .number(Double(max)), "actual": .number(Double(actual)), "unit": .string(unit.rawValue)]
        case .outOfRange(let min, let max, let actual):
            // Int64's ends do not survive a double: the bounds travel as text.
            ["reason": "outOfRange", "min": .string(String(min)), "max": .string(String(max)), "actual": .string(actual)]
        case .wrongType(let expected, let actual): ["reason": "wrongType", "expected": .string(expected.rawValue), "actual": .string(actual)]
        case .notUUID(let text): ["reason": "notUUID", "actual": .string(text)]
        case .notDate(let text): ["reason": "notDate", "actual": .string(text)]
        case .dateOutOfRange(let text): ["reason": "dateOutOfRange", "actual": .string(text)]
        case .forbiddenCharacter(let scalar): ["reason": "forbiddenCharacter", "codePoint": .number(Double(scalar))]
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
                  let unit = data["unit"]?.stringValue.flatMap(LengthUnit.init(rawValue:)) else { return nil }
            return .tooLong(max: max, actual: count, unit: unit)
        case "outOfRange":
            guard let min = data["min"]?.stringValue.flatMap({ Int64($0) }), let max = data["max"]?.stringValue.flatMap({ Int64($0) }),
                  let actual else { return nil }
            return .outOfRange(min: min, max: max, actual: actual)
        case "wrongType":
            guard let expected = data["expected"]?.stringValue.flatMap(ValueKind.init(rawValue:)), let actual else { return nil }
            return .wrongType(expected: expected, actual: actual)
        case "notUUID": return actual.map { .notUUID($0) }
        case "notDate": return actual.map { .notDate($0) }
        case "dateOutOfRange": return actual.map { .dateOutOfRange($0) }
        case "forbiddenCharacter": return data["codePoint"]?.intValue.map { .forbiddenCharacter(UInt32($0)) }
        case "notText": return data["detail"]?.stringValue.map { .notText($0) }
        case "unknownCursor": return actual.map { .unknownCursor($0) }
        case "unreadable": return data["path"]?.stringValue.map { .unreadable(path: $0) }
        case "malformed": return data["detail"]?.stringValue.map { .malformed($0) }
        default: return nil
        }
    }
}
