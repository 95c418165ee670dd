import Foundation
import GRDB
@testable import LocalPlatform
@testable import Search

/// A corpus in FTS5 (the reference, table `fts`) and in an impact index,
/// its words as unevenly common as a real one's (`ImpactSearchTests`,
/// `ImpactPhraseTests`).
struct ZipfCorpus {
    let database: DatabaseQueue
    var index = ImpactIndex()
    var commonWords: [String] = []
    var rareWords: [String] = []

    /// Words drawn by a Zipf law over made-up words, with English
    /// endings so that stems are shared (`talk`, `talking`, `talks`).
    static func corpus(count: Int, seed: UInt64) -> (words: [String], posts: [(title: String, content: String)]) {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "bra", "con", "dex", "fil", "gor", "hum", "jet"]
        let endings = ["", "", "", "s", "ing", "ed", "er", "ation"]
        var words: [String] = []
        var seen = Set<String>()
        while words.count < 1_500 {
            let stem = (0..<(2 + next(2))).map { _ in syllables[next(syllables.count)] }.joined()
            let word = stem + endings[next(endings.count)]
            if seen.insert(word).inserted { words.append(word) }
        }
        // Zipf: the word at rank r drawn in proportion to 1 / (r + 1).
        let weights = words.indices.map { 1.0 / Double($0 + 1) }
        let cumulative = weights.reduce(into: [Double]()) { $0.append(($0.last ?? 0) + $1) }
        func word() -> String {
            let target = Double(next(1_000_000)) / 1_000_000 * cumulative.last!
            return words[cumulative.firstIndex { $0 >= target } ?? words.count - 1]
        }
        func text(_ length: Int) -> String { (0..<length).map { _ in word() }.joined(separator: " ") }
        let posts = (0..<count).map { index in
            (title: text(1 + next(6)), content: index % 211 == 0 ? text(3_000) : text(1 + next(80)))
        }
        return (words, posts)
    }

    /// By default every 7th post is removed and every 5th changed (removed,
    /// and added again under a new rowid, as the index changes a document).
    static func build(
        count: Int, seed: UInt64, removes: (Int) -> Bool = { $0 % 7 == 0 }, changes: (Int) -> Bool = { $0 % 5 == 0 }
    ) throws -> ZipfCorpus {
        let (words, posts) = corpus(count: count, seed: seed)
        let database = try DatabaseQueue()
        var built = ZipfCorpus(database: database)
        try database.write { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE fts USING fts5(title, content, tokenize = 'porter unicode61')")
            let tokenizer = try ImpactTokenizer.fts5()
            func add(_ rowid: Int64, _ post: (title: String, content: String)) throws {
                try db.execute(sql: "INSERT INTO fts (rowid, title, content) VALUES (?, ?, ?)", arguments: [rowid, post.title, post.content])
                let title = try tokenizer.stems(of: tokenizer.packedWords(in: post.title), adding: &built.index)
                let content = try tokenizer.stems(of: tokenizer.packedWords(in: post.content), adding: &built.index)
                built.index.add(rowid: rowid, title: title, content: content)
            }
            for (offset, post) in posts.enumerated() { try add(Int64(offset + 1), post) }
            var next = Int64(posts.count + 1)
            for (offset, post) in posts.enumerated() where removes(offset) || changes(offset) {
                let rowid = Int64(offset + 1)
                try db.execute(sql: "DELETE FROM fts WHERE rowid = ?", arguments: [rowid])
                let stems = try tokenizer.stems(of: tokenizer.packedWords(in: post.title + " " + post.content), adding: &built.index)
                built.index.remove(rowid: rowid, stems: stems)
                if !removes(offset) {
                    try add(next, (title: post.title, content: post.content + " " + words[offset % 50]))
                    next += 1
                }
            }
        }
        let documents = try database.read { db in
            try Dictionary(
                uniqueKeysWithValues: words.map { word in
                    (word, try Int.fetchOne(db, sql: "SELECT count(*) FROM fts WHERE fts MATCH ?", arguments: [SearchQuery.quote(word)]) ?? 0)
                })
        }
        built.commonWords = words.filter { documents[$0, default: 0] > count / 10 }
        built.rareWords = words.filter { (1...80).contains(documents[$0, default: 0]) }
        return built
    }

    /// FTS5's own bm25 over every match of `match` (an FTS5 expression):
    /// the best `keep` (rowid, score), and how many match.
    func exhaustive(_ match: String, keep: Int) throws -> (ranked: [Ranked], total: Int) {
        try database.read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT rowid, -bm25(fts, 10.0, 1.0) AS score FROM fts WHERE fts MATCH ? ORDER BY score DESC, rowid LIMIT ?",
                arguments: [match, keep])
            let total = try Int.fetchOne(db, sql: "SELECT count(*) FROM fts WHERE fts MATCH ?", arguments: [match]) ?? 0
            return (rows.map { Ranked(score: $0[1], rowid: $0[0]) }, total)
        }
    }
}
