extension StringProtocol {
    /// Without the characters that `drop` matches at either end (white
    /// space, line breaks included, unless told otherwise).
    func trimmed(_ drop: (Character) -> Bool = \.isWhitespace) -> String {
        guard let first = firstIndex(where: { !drop($0) }), let last = lastIndex(where: { !drop($0) }) else { return "" }
        return String(self[first...last])
    }
}
