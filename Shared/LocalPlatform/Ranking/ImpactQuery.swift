import Domain

/// What a person typed, as `ImpactSearch`'s groups of stems: each plain
/// word a group of its one stem, and an unfinished last word the group of
/// its `SearchRules.prefixCompletions` most common completions (words and
/// stems that start with it or with its stem, each as its stem; the most
/// documents first). A completion scores as a word of its own, with its
/// own inverse frequency, where FTS5 scores a prefix as one phrase: so a
/// prefix's page may differ from FTS5's, where a whole word's never does.
enum ImpactQuery {
    /// The groups, or nil for a query with a phrase (FTS5 ranks those).
    static func groups(
        for terms: [SearchQuery.Term], lastIsUnfinished: Bool, in index: ImpactIndex, tokenizer: ImpactTokenizer
    ) throws -> [[Int32]]? {
        guard !terms.contains(where: \.isPhrase) else { return nil }
        return try terms.enumerated().map { position, term in
            let word = term.words.joined(separator: " ")
            if lastIsUnfinished && position == terms.count - 1 {
                return try completions(of: word, in: index, tokenizer: tokenizer)
            }
            // A word the index has never seen is in no document: its group is empty.
            return try tokenizer.knownStems(of: word, in: index).map { $0.map { [$0] } ?? [] }.first ?? []
        }
    }

    static func completions(of word: String, in index: ImpactIndex, tokenizer: ImpactTokenizer) throws -> [Int32] {
        guard let folded = try tokenizer.words(in: word).first else { return [] }
        let stems = index.vocabulary.stems(startingWith: [folded, try tokenizer.stem(folded)])
        func documents(_ stem: Int32) -> Int { Int(stem) < index.postings.count ? index.postings[Int(stem)].documents : 0 }
        return stems.filter { documents($0) > 0 }
            .sorted { (documents($0), $1) > (documents($1), $0) }
            .prefix(SearchRules.prefixCompletions)
            .map { $0 }
    }
}
