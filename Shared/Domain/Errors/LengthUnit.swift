public enum LengthUnit: String, Sendable, Equatable, CaseIterable {
    case characters, bytes, entries
}
