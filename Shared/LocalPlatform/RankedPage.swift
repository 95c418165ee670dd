import Domain
import Foundation
import GRDB
import GRDBSQLite

/// One page of a search. FTS5 finds the matches; `posts_rank` scores each
/// as FTS5's bm25 would and passes on only those that may still be on the
/// page, so snippets are made for about keep × ln(matches / keep) rows,
/// not for every match; SQLite keeps the page. The best score first; equal
/// scores in rowid order, as FTS5's own ranking has them.
enum RankedPage {
    static let sql = """
        SELECT document.uid, document.title, hits.score, hits.snippet FROM (
            SELECT rowid, score, snippet(document_fts, -1, char(57344), char(57345), '…', 16) AS snippet FROM (
                SELECT rowid, \(FTS5Ranking.functionName)(document_fts, ?4) AS score, document_fts
                FROM document_fts WHERE document_fts MATCH ?1
            ) WHERE score IS NOT NULL ORDER BY score DESC, rowid LIMIT ?2 OFFSET ?3
        ) AS hits JOIN document ON document.rowid = hits.rowid ORDER BY hits.score DESC, hits.rowid
        """

    /// The page's hits; `request.matches` is then the exact number of matches.
    /// Run directly on SQLite's statement: its fourth parameter is a pointer,
    /// which GRDB's arguments cannot carry.
    static func fetch(_ db: Database, match: String, limit: Int, offset: Int, request: RankRequest) throws -> [SearchHit] {
        let statement = try db.cachedStatement(sql: sql).sqliteStatement
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        let bound = [
            sqlite3_bind_text(statement, 1, match, -1, transient),
            sqlite3_bind_int64(statement, 2, Int64(limit)),
            sqlite3_bind_int64(statement, 3, Int64(offset)),
            request.bind(to: statement, at: 4),
        ]
        if let failed = bound.first(where: { $0 != SQLITE_OK }) { throw error(failed, db) }
        var hits: [SearchHit] = []
        while true {
            let code = withExtendedLifetime(request) { sqlite3_step(statement) }
            if code == SQLITE_DONE { return hits }
            guard code == SQLITE_ROW else { throw error(code, db) }
            guard let uid = UUID(text: text(statement, 0)) else { continue }
            let (snippet, highlights) = Highlights.split(text(statement, 3))
            hits.append(SearchHit(uid: uid, title: text(statement, 1), snippet: snippet, highlights: highlights,
                                  score: sqlite3_column_double(statement, 2)))
        }
    }

    private static func text(_ statement: SQLiteStatement, _ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(statement, column) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    private static func error(_ code: Int32, _ db: Database) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage, sql: sql)
    }
}
