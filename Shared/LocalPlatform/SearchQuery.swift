import Domain
import Foundation

/// Turns what a person types into an FTS5 MATCH expression that can never
/// be a syntax error: every word becomes a quoted string (so AND, NEAR, *,
/// column filters and stray quotes mean nothing special), words must all
/// match, the last one as a prefix, and "quoted phrases" stay phrases.
enum SearchQuery {
    /// The MATCH expression, or nil when the text has no searchable word.
    static func expression(for text: String) -> String? {
        let terms = terms(in: text)
        return terms.isEmpty ? nil : expression(for: terms)
    }

    /// Search as you type: the last plain word may be unfinished, so it
    /// matches as a prefix or as any of `completions` (whole words that
    /// start with it, which the stemmer may have cut shorter than it).
    static func expression(for terms: [Term], completions: [String] = []) -> String {
        terms.enumerated().map { index, term in
            let quoted = quote(term.words.joined(separator: " "))
            guard index == terms.count - 1 && !term.isPhrase else { return quoted }
            guard !completions.isEmpty else { return quoted + " *" }
            return "(" + ([quoted + " *"] + completions.map(quote)).joined(separator: " OR ") + ")"
        }.joined(separator: " AND ")
    }

    static func quote(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A word as unicode61 indexes it: lower case, without diacritics.
    static func folded(_ word: String) -> String {
        word.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    struct Term: Equatable {
        var words: [String]
        var isPhrase: Bool
    }

    /// Words as FTS5's unicode61 tokenizer sees them: runs of letters (L*),
    /// numbers (N*) and private-use characters (Co); everything else separates.
    static func words(in text: Substring) -> [String] {
        var words: [String] = []
        var current = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isTokenCharacter(scalar) {
                current.append(scalar)
            } else if !current.isEmpty {
                words.append(String(current))
                current = String.UnicodeScalarView()
            }
        }
        if !current.isEmpty { words.append(String(current)) }
        return words
    }

    static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber, .privateUse:
            true
        default:
            false
        }
    }

    /// Words and "phrases", keeping only what the tokenizer would index
    /// (letters and digits); an unclosed quote runs to the end.
    static func terms(in text: String) -> [Term] {
        var terms: [Term] = []
        // Between the 1st and 2nd quote (3rd and 4th…) is a phrase.
        for (index, part) in text.split(separator: "\"", omittingEmptySubsequences: false).enumerated() {
            let words = Self.words(in: part)
            if index % 2 == 1 {
                if !words.isEmpty { terms.append(Term(words: words, isPhrase: true)) }
            } else {
                terms += words.map { Term(words: [$0], isPhrase: false) }
            }
        }
        return terms
    }
}
