import Foundation
import GRDB

/// The reference the search figures stand beside: SQLite's FTS5 in this
/// process, as an application would use it, on the same posts (porter over
/// unicode61, bm25 with the title weighted ten times). Each query asks for
/// its best 10 with a snippet, and counts every match, as `search.query`
/// answers.
struct FTS5Baseline {
    private let database: DatabaseQueue

    init(posts: [(title: String, content: String)]) throws {
        database = try DatabaseQueue()
        try database.write { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE fts USING fts5(title, content, tokenize = 'porter unicode61')")
            let insert = try db.makeStatement(sql: "INSERT INTO fts (title, content) VALUES (?, ?)")
            for post in posts { try insert.execute(arguments: [post.title, post.content]) }
        }
        try database.writeWithoutTransaction { db in try db.execute(sql: "INSERT INTO fts(fts) VALUES ('optimize')") }
    }

    /// The page of `query`'s best 10 (rowid, title, snippet), and the number of matches.
    func search(_ query: String) throws -> (hits: [(rowid: Int64, title: String, snippet: String)], total: Int) {
        let match = Self.expression(query)
        return try database.read { db in
            let hits = try GRDB.Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT rowid, title, snippet(fts, -1, '[', ']', '…', 16) FROM fts WHERE fts MATCH ?
                        ORDER BY bm25(fts, 10.0, 1.0) LIMIT 10
                        """), arguments: [match]
            ).map { (rowid: $0[0] as Int64, title: $0[1] as String, snippet: $0[2] as String) }
            let total = try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM fts WHERE fts MATCH ?"), arguments: [match]) ?? 0
            return (hits, total)
        }
    }

    /// Words and "phrases" quoted, all required, the last plain word a prefix.
    static func expression(_ query: String) -> String {
        var terms: [(text: String, isPhrase: Bool)] = []
        for (index, part) in query.split(separator: "\"", omittingEmptySubsequences: false).enumerated() {
            let words = part.split { !$0.isLetter && !$0.isNumber }.map(String.init)
            if index % 2 == 1 {
                if !words.isEmpty { terms.append((words.joined(separator: " "), true)) }
            } else {
                terms += words.map { ($0, false) }
            }
        }
        return terms.enumerated().map { index, term in
            "\"\(term.text)\"" + (index == terms.count - 1 && !term.isPhrase ? " *" : "")
        }.joined(separator: " AND ")
    }
}
