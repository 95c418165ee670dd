import GRDB

/// Text as the FTS5 index of posts tokenizes it (porter over unicode61),
/// as an `ImpactIndex`'s stem numbers: unicode61 finds and folds the
/// words, and each new word is stemmed once by FTS5's own porter (which
/// stems each unicode61 token alone, so the tokens and their count are
/// FTS5's, which bm25 needs to agree on).
struct ImpactTokenizer {
    private let words: any FTS5Tokenizer
    private let stemmer: any FTS5Tokenizer

    init(_ db: Database) throws {
        words = try db.makeTokenizer(.unicode61())
        stemmer = try db.makeTokenizer(.porter(wrapping: .unicode61()))
    }

    func words(in text: String) throws -> [String] {
        try words.tokenize(document: text).map(\.token)
    }

    func stem(_ word: String) throws -> String {
        try stemmer.tokenize(query: word).first?.token ?? word
    }

    /// The stems of `words` (a text's, `words(in:)`), in order, new words added to `index`.
    func stems(ofWords words: [String], adding index: inout ImpactIndex) throws -> [Int32] {
        try words.map { word in
            if let known = index.vocabulary.stem(ofWord: word) { return known }
            return index.add(word: word, stem: try stem(word))
        }
    }

    /// The stems of `text`'s tokens that the index knows (a word it has
    /// never seen is in no document).
    func knownStems(of text: String, in index: ImpactIndex) throws -> [Int32?] {
        try words(in: text).map { word in
            if let known = index.vocabulary.stem(ofWord: word) { return known }
            return index.vocabulary.number(ofStem: try stem(word))
        }
    }
}
