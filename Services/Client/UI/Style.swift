import ServiceSupport
import Application
/// ANSI text styles, and fitting text to a width.
enum Style {
    static func bold(_ text: String) -> String { "\u{1B}[1m\(text)\u{1B}[22m" }
    static func dim(_ text: String) -> String { "\u{1B}[2m\(text)\u{1B}[22m" }
    static func reverse(_ text: String) -> String { "\u{1B}[7m\(text)\u{1B}[27m" }
    static func highlight(_ text: String) -> String { "\u{1B}[1;33m\(text)\u{1B}[22;39m" }
    static func error(_ text: String) -> String { "\u{1B}[31m\(text)\u{1B}[39m" }

    /// A problem on one line, marked by its kind: a person tells an outage
    /// (nothing they can fix here) from a conflict or a field to correct.
    static func problem(_ problem: Problem, width: Int) -> String {
        let mark =
            switch problem {
            case .conflict: "Conflict"
            case .outage: "Offline"
            case .slow: "Slow"
            case .notFound: "Gone"
            case .invalid: "Check"
            case .other: "Error"
            }
        return error(fit("! \(mark): \(problem.message)", width))
    }

    /// A character safe to draw: control characters (ESC among them: a
    /// post must never drive the terminal) and bidirectional overrides, by
    /// the rule the CLI and the logs escape by (`Escaped`), become "·";
    /// line breaks and tabs a space.
    static func printable(_ character: Character) -> Character {
        if character.isNewline || character == "\t" { return " " }
        if character.unicodeScalars.contains(where: Escaped.isControl) { return "·" }
        return character
    }

    /// Terminal columns a character takes: two for East Asian wide and
    /// full-width characters and most emoji, one for the rest.
    static func columns(_ character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first?.value else { return 1 }
        switch scalar {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
            0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// Terminal columns `text` takes (plain text, no escapes).
    static func width(_ text: String) -> Int { text.reduce(0) { $0 + columns($1) } }

    /// `text` padded with spaces to `width` columns.
    static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - Self.width(text)))
    }

    /// `text` cut to `width` columns (one line, with … when cut).
    static func fit(_ text: String, _ width: Int) -> String {
        let flat = text.map(printable)
        guard flat.reduce(0, { $0 + columns($1) }) > width else { return String(flat) }
        var out = ""
        var used = 0
        let room = width <= 1 ? width : width - 1
        for character in flat {
            guard used + columns(character) <= room else { break }
            out.append(character)
            used += columns(character)
        }
        return width <= 1 ? out : out + "…"
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
            shown += Self.width(plainFit)
            guard shown < width else { return out }
            let matchFit = fit(match, width - shown)
            out += highlight(matchFit)
            shown += Self.width(matchFit)
            index = range.upperBound
        }
        return out + fit(String(String.UnicodeScalarView(scalars[index...])), max(0, width - shown))
    }

    /// Table cells: each padded to its width, on the left for a positive
    /// width and on the right (numbers) for a negative one, then cut to `width`.
    static func row(_ cells: [(String, Int)], width: Int) -> String {
        fit(
            cells.map { text, column in
                let pad = String(repeating: " ", count: max(0, abs(column) - Self.width(text)))
                return column < 0 ? pad + text : text + pad
            }.joined(separator: " "), width)
    }
}
