import Domain

/// What a person typed, as `ImpactSearch`'s groups of stems: each plain
/// word a group of its one stem, and an unfinished last word the group of
/// its `SearchRules.prefixCompletions` most common completions (words and
/// stems that start with it or with its stem, each as its stem; the most
/// documents first). A completion scores as a word of its own, with its
/// own inverse frequency, where FTS5 scores a prefix as one phrase: so a
/// prefix's page may differ from FTS5's, where a whole word's never does.
enum ImpactQuery {
    /// The groups, or nil for a query with a phrase of several words (a
    /// phrase of one word is that word, never unfinished).
    static func groups(
        for terms: [SearchQuery.Term], lastIsUnfinished: Bool, in index: ImpactIndex, tokenizer: ImpactTokenizer
    ) throws -> [[Int32]]? {
        guard !terms.contains(where: { $0.isPhrase && $0.words.count > 1 }) else { return nil }
        return try terms.enumerated().map { position, term in
            try group(for: term, unfinished: lastIsUnfinished && position == terms.count - 1, in: index, tokenizer: tokenizer)
        }
    }

    /// Every term, a phrase of several words as its stems in order, as
    /// `ImpactPhrases` ranks them; nil when a phrase has a word the index
    /// has never seen (no document holds the phrase, so none matches).
    static func terms(
        for terms: [SearchQuery.Term], lastIsUnfinished: Bool, in index: ImpactIndex, tokenizer: ImpactTokenizer
    ) throws -> [QueryTerm]? {
        var found: [QueryTerm] = []
        for (position, term) in terms.enumerated() {
            guard term.isPhrase && term.words.count > 1 else {
                let unfinished = lastIsUnfinished && position == terms.count - 1
                found.append(.anyOf(try group(for: term, unfinished: unfinished, in: index, tokenizer: tokenizer)))
                continue
            }
            let stems = try tokenizer.knownStems(of: term.words.joined(separator: " "), in: index)
            guard stems.allSatisfy({ $0 != nil }) else { return nil }
            found.append(.phrase(stems.compactMap { $0 }))
        }
        return found
    }

    /// A word's group: its stem (none for a word the index has never seen,
    /// which is in no document), or an unfinished word's completions.
    private static func group(for term: SearchQuery.Term, unfinished: Bool, in index: ImpactIndex, tokenizer: ImpactTokenizer) throws -> [Int32] {
        let word = term.words.joined(separator: " ")
        if unfinished && !term.isPhrase { return try completions(of: word, in: index, tokenizer: tokenizer) }
        return try tokenizer.knownStems(of: word, in: index).map { $0.map { [$0] } ?? [] }.first ?? []
    }

    /// A query of one phrase of several words: its stems, in order (nil
    /// for a word the index has never seen, which no document holds), as
    /// `ImpactPhrase` ranks it. Nil for any other query: a phrase beside
    /// other terms has an inverse frequency of its own, which only its
    /// every match tells (`terms`, `ImpactPhrases`).
    static func phrase(for terms: [SearchQuery.Term], in index: ImpactIndex, tokenizer: ImpactTokenizer) throws -> [Int32?]? {
        guard terms.count == 1, let term = terms.first, term.isPhrase, term.words.count > 1 else { return nil }
        return try tokenizer.knownStems(of: term.words.joined(separator: " "), in: index)
    }

    static func completions(of word: String, in index: ImpactIndex, tokenizer: ImpactTokenizer) throws -> [Int32] {
        guard let folded = try tokenizer.words(in: word).first else { return [] }
        let stems = index.vocabulary.stems(startingWith: [folded, try tokenizer.stem(folded)])
        // The most documents first, then the lower number; a first letter
        // has thousands of completions, so only the best few are kept in order.
        var best: [(documents: Int, stem: Int32)] = []
        for stem in stems where Int(stem) < index.postings.count {
            let documents = index.postings[Int(stem)].documents
            guard documents > 0 else { continue }
            let entry = (documents, stem)
            if best.count == SearchRules.prefixCompletions {
                guard let last = best.last, (entry.0, last.stem) > (last.documents, entry.1) else { continue }
                best.removeLast()
            }
            let at = best.firstIndex { (entry.0, $0.stem) > ($0.documents, entry.1) } ?? best.count
            best.insert(entry, at: at)
        }
        return best.map(\.stem)
    }
}
