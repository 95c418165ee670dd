import Domain
import GRDB
import Search

/// The search engine's `WordTokenizer` as the FTS5 index of posts
/// tokenizes: unicode61 finds and folds the words, and FTS5's own porter
/// stems each (which stems each unicode61 token alone, so the tokens and
/// their count are FTS5's, which bm25 needs to agree on). FTS5's
/// tokenizers live in a SQLite connection: each of these has one of its
/// own, in memory, for nothing else; one thread uses it at a time.
final class FTS5Words: WordTokenizer, @unchecked Sendable {
    private let connection: DatabaseQueue
    private let words: any FTS5Tokenizer
    private let stemmer: any FTS5Tokenizer

    init() throws {
        connection = try DatabaseQueue()
        (words, stemmer) = try connection.inDatabase { db in
            (try db.makeTokenizer(.unicode61()), try db.makeTokenizer(.porter(wrapping: .unicode61())))
        }
    }

    func eachWord(in text: UnsafeBufferPointer<UInt8>, what: String, _ each: (UnsafeBufferPointer<UInt8>, Range<Int>) -> Bool) throws {
        try TokenWalk.each(in: text, by: words, for: .document, what: what, each)
    }

    func stem(_ word: String) throws -> String {
        var word = word
        var stem: String?
        try word.withUTF8 { bytes in
            try TokenWalk.each(in: bytes, by: stemmer, for: .query, what: "a word") { token, _ in
                stem = String(decoding: token, as: UTF8.self)
                return false
            }
        }
        return stem ?? word
    }
}

extension ImpactRanker {
    /// A ranker that finds words as FTS5 does (`FTS5Words`).
    public static func fts5() throws(PostsError) -> ImpactRanker {
        try ImpactRanker { try FTS5Words() }
    }
}

extension ImpactTokenizer {
    /// FTS5's words (`FTS5Words`), for the tests and benchmarks that rank
    /// without a ranker.
    static func fts5() throws -> ImpactTokenizer {
        ImpactTokenizer(try FTS5Words())
    }
}
