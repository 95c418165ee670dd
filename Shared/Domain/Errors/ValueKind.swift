/// The kinds of value a field can hold, named as people (and JSON) name them.
public enum ValueKind: String, Sendable, Equatable, CaseIterable {
    case string, integer, number, boolean, object, array, null

    public var phrase: String {
        switch self {
        case .string: "a string"
        case .integer: "an integer"
        case .number: "a number"
        case .boolean: "true or false"
        case .object: "an object"
        case .array: "an array"
        case .null: "null"
        }
    }
}
