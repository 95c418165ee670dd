import Domain
import Foundation

/// What a person types, as terms: words, and "quoted phrases", each word
/// as FTS5's unicode61 tokenizer finds them (so AND, NEAR, *, column
/// filters and stray quotes mean nothing special). The ranking takes every
/// term as required, and the last plain word as unfinished (`ImpactQuery`).
public enum SearchQuery {
    public struct Term: Equatable, Sendable {
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

    public static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
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
    public static func terms(in text: String) -> [Term] {
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
