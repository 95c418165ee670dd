/// Text from a peer (a post's title, a service name, a key file's name) made
/// safe to show on a terminal or write to a log: control characters, which
/// a terminal would obey (an escape sequence clears the screen, a newline
/// forges a log line), and bidirectional overrides, which reorder what is
/// shown, become visible `\u{…}` text. One rule, used by the log handler and
/// by everything the client prints or draws.
public enum Escaped {
    /// For one line: a log field, a table cell, a title. Newlines and tabs
    /// are escaped too, and so is a backslash, so `\n` in the output always
    /// means an escaped newline and never the two characters.
    public static func line(_ text: String) -> String {
        escape(text, keepingLayout: false)
    }

    /// For text shown as a block (a post's content): newlines and tabs stay,
    /// every other control character is escaped.
    public static func text(_ text: String) -> String {
        escape(text, keepingLayout: true)
    }

    /// Whether `text` would be changed by `line` (nothing to escape).
    public static func isPlainLine(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { !needsEscape($0) && $0 != "\\" && $0 != "\n" && $0 != "\t" }
    }

    private static func escape(_ text: String, keepingLayout: Bool) -> String {
        // Most text has nothing to escape: return it as it is, with no copy.
        if text.unicodeScalars.allSatisfy({ !needsEscape($0) && (keepingLayout || ($0 != "\\" && $0 != "\n" && $0 != "\t")) }) {
            return text
        }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n" where keepingLayout, "\t" where keepingLayout: result.append(scalar)
            case "\n": result.append(contentsOf: "\\n".unicodeScalars)
            case "\t": result.append(contentsOf: "\\t".unicodeScalars)
            case "\r": result.append(contentsOf: "\\r".unicodeScalars)
            case "\\" where !keepingLayout: result.append(contentsOf: "\\\\".unicodeScalars)
            case _ where needsEscape(scalar):
                result.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// C0 and C1 controls, DEL, and the bidirectional embeddings, overrides
    /// and isolates (U+202A–U+202E, U+2066–U+2069): what a terminal would
    /// act on or reorder. The full-screen interface draws these as "·".
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool { needsEscape(scalar) }

    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
