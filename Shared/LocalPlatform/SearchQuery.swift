import Domain

/// Turns what a person types into an FTS5 MATCH expression that can never
/// be a syntax error: every word becomes a quoted string (so AND, NEAR, *,
/// column filters and stray quotes mean nothing special), words must all
/// match, the last one as a prefix, and "quoted phrases" stay phrases.
enum SearchQuery {
    /// The MATCH expression, or nil when the text has no searchable word.
    static func expression(for text: String) -> String? {
        let terms = terms(in: text)
        guard !terms.isEmpty else { return nil }
        return terms.enumerated().map { index, term in
            let quoted = "\"" + term.words.joined(separator: " ").replacingOccurrences(of: "\"", with: "\"\"") + "\""
            // Search as you type: the last plain word may be unfinished.
            return index == terms.count - 1 && !term.isPhrase ? quoted + " *" : quoted
        }.joined(separator: " AND ")
    }

    struct Term: Equatable {
        var words: [String]
        var isPhrase: Bool
    }

    /// Words and "phrases", keeping only what the tokenizer would index
    /// (letters and digits); an unclosed quote runs to the end.
    static func terms(in text: String) -> [Term] {
        var terms: [Term] = []
        // Between the 1st and 2nd quote (3rd and 4th…) is a phrase.
        for (index, part) in text.split(separator: "\"", omittingEmptySubsequences: false).enumerated() {
            let words = part.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
            if index % 2 == 1 {
                if !words.isEmpty { terms.append(Term(words: words, isPhrase: true)) }
            } else {
                terms += words.map { Term(words: [$0], isPhrase: false) }
            }
        }
        return terms
    }
}
