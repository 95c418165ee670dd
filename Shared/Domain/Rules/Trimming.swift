extension String {
    /// Without the white space and line breaks at either end: Unicode's
    /// space, line and paragraph separators, tab, LF, VT, FF, CR and NEL,
    /// scalar by scalar (the set Foundation calls `whitespacesAndNewlines`).
    func trimmingWhiteSpace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.isWhiteSpace }),
            let last = scalars.lastIndex(where: { !$0.isWhiteSpace })
        else { return "" }
        return String(scalars[first...last])
    }
}

extension Unicode.Scalar {
    fileprivate var isWhiteSpace: Bool {
        switch value {
        case 0x09...0x0D, 0x85: return true
        default:
            switch properties.generalCategory {
            case .spaceSeparator, .lineSeparator, .paragraphSeparator: return true
            default: return false
            }
        }
    }
}
