import Foundation
import GRDB
@testable import LocalPlatform
@testable import Search

/// FTS5's own bm25 over the documents an index file holds, in a table of
/// its own in memory, with the same rowids (equal scores fall in rowid
/// order): the exhaustive ranking the index's own is held to.
struct FTS5Reference {
    private let database: DatabaseQueue

    /// The documents of the index at `path`, as they are now.
    init(indexAt path: String) throws {
        let documents = try DatabaseQueue(path: path).read { db in
            let text = try DocumentText.stored(db)
            return try Row.fetchAll(db, sql: "SELECT rowid, uid, text FROM document").map { row in
                let (title, content) = try text.decode(row[2])
                return (rowid: row[0] as Int64, uid: row[1] as Data, title: title, content: content)
            }
        }
        database = try DatabaseQueue()
        try database.write { db in
            try db.execute(
                sql: """
                    CREATE VIRTUAL TABLE fts USING fts5(title, content, tokenize = 'porter unicode61');
                    CREATE TABLE document (rowid INTEGER PRIMARY KEY, uid BLOB NOT NULL);
                    """)
            for document in documents {
                try db.execute(
                    sql: "INSERT INTO fts (rowid, title, content) VALUES (?, ?, ?)",
                    arguments: [document.rowid, document.title, document.content])
                try db.execute(sql: "INSERT INTO document (rowid, uid) VALUES (?, ?)", arguments: [document.rowid, document.uid])
            }
        }
    }

    /// What FTS5's bm25 makes of `query` (its last plain word a prefix):
    /// the page's uids and scores, and the number of matches.
    func page(_ query: String, limit: Int, offset: Int) throws -> (uids: [String], scores: [Double], total: Int) {
        let match = SearchQuery.expression(for: SearchQuery.terms(in: query))
        return try database.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT document.uid, hits.score FROM (
                        SELECT rowid, -bm25(fts, 10.0, 1.0) AS score FROM fts WHERE fts MATCH ?
                        ORDER BY score DESC, rowid LIMIT ? OFFSET ?
                    ) AS hits JOIN document ON document.rowid = hits.rowid ORDER BY hits.score DESC, hits.rowid
                    """, arguments: [match, limit, offset])
            let total = try Int.fetchOne(db, sql: "SELECT count(*) FROM fts WHERE fts MATCH ?", arguments: [match]) ?? 0
            return (rows.map { ($0[0] as UUID).uuidString }, rows.map { $0[1] }, total)
        }
    }

    /// The distinct stems FTS5 holds, with the documents and occurrences of each.
    func vocabulary() throws -> [String: [Int]] {
        try database.write { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE IF NOT EXISTS vocabulary USING fts5vocab(fts, row)")
            return try Dictionary(
                uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT term, doc, cnt FROM vocabulary").map { row in
                    (row[0] as String, [row[1] as Int, row[2] as Int])
                })
        }
    }
}

extension SearchQuery {
    /// `terms` as an FTS5 MATCH expression that is never a syntax error:
    /// each word and phrase quoted, all of them required, the last plain
    /// word a prefix.
    static func expression(for terms: [Term]) -> String {
        terms.enumerated().map { index, term in
            let quoted = quote(term.words.joined(separator: " "))
            return index == terms.count - 1 && !term.isPhrase ? quoted + " *" : quoted
        }.joined(separator: " AND ")
    }

    static func quote(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
