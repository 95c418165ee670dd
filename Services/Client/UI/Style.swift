/// ANSI text styles, and fitting text to a width.
enum Style {
    static func bold(_ text: String) -> String { "\u{1B}[1m\(text)\u{1B}[22m" }
    static func dim(_ text: String) -> String { "\u{1B}[2m\(text)\u{1B}[22m" }
    static func reverse(_ text: String) -> String { "\u{1B}[7m\(text)\u{1B}[27m" }
    static func highlight(_ text: String) -> String { "\u{1B}[1;33m\(text)\u{1B}[22;39m" }
    static func error(_ text: String) -> String { "\u{1B}[31m\(text)\u{1B}[39m" }

    /// A character safe to draw: control characters (ESC among them: a
    /// post must never drive the terminal) become "·", line breaks and tabs
    /// a space.
    static func printable(_ character: Character) -> Character {
        if character.isNewline || character == "\t" { return " " }
        if character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { return "·" }
        return character
    }

    /// `text` cut to `width` characters (one line, with … when cut).
    static func fit(_ text: String, _ width: Int) -> String {
        let flat = text.map(printable)
        guard flat.count > width else { return String(flat) }
        return width <= 1 ? String(flat.prefix(width)) : String(flat.prefix(width - 1)) + "…"
    }

    /// `text` with the scalar ranges `highlights` highlighted, cut to `width` characters.
    static func highlighted(_ text: String, _ highlights: [Range<Int>], width: Int) -> String {
        let scalars = Array(text.unicodeScalars)
        var out = ""
        var shown = 0
        var index = 0
        for range in highlights.sorted(by: { $0.lowerBound < $1.lowerBound }) where range.lowerBound >= index && range.upperBound <= scalars.count {
            let plain = String(String.UnicodeScalarView(scalars[index..<range.lowerBound]))
            let match = String(String.UnicodeScalarView(scalars[range]))
            let plainFit = fit(plain, max(0, width - shown))
            out += plainFit
            shown += plainFit.count
            guard shown < width else { return out }
            let matchFit = fit(match, width - shown)
            out += highlight(matchFit)
            shown += matchFit.count
            index = range.upperBound
        }
        return out + fit(String(String.UnicodeScalarView(scalars[index...])), max(0, width - shown))
    }

    /// Table cells: each padded to its width, on the left for a positive
    /// width and on the right (numbers) for a negative one, then cut to `width`.
    static func row(_ cells: [(String, Int)], width: Int) -> String {
        fit(cells.map { text, column in
            let pad = String(repeating: " ", count: max(0, abs(column) - text.count))
            return column < 0 ? pad + text : text + pad
        }.joined(separator: " "), width)
    }
}
