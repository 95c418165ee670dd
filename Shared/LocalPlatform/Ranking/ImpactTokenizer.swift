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
        try Self.tokens(of: text, by: words, for: .document)
    }

    func stem(_ word: String) throws -> String {
        try Self.tokens(of: word, by: stemmer, for: .query).first ?? word
    }

    /// The tokens `tokenizer` finds in `text`, each made straight from the
    /// bytes it gives (UTF-8: FTS5's tokenizers cut and fold whole
    /// characters of a Swift string's valid UTF-8). Through GRDB's
    /// `tokenize(document:)` this was a quarter of a search's time besides
    /// the ranking, for the page's snippets, and part of every post's write.
    private static func tokens(of text: String, by tokenizer: any FTS5Tokenizer, for tokenization: FTS5Tokenization) throws -> [String] {
        guard !text.isEmpty else { return [] }
        var text = text
        var tokens: [String] = []
        try text.withUTF8 { bytes in
            try TokenWalk.each(in: bytes, by: tokenizer, for: tokenization, what: "a text") { token, _ in
                tokens.append(String(decoding: token, as: UTF8.self))
                return true
            }
        }
        return tokens
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
