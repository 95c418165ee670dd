import Domain
import Foundation
import GRDB
import GRDBSQLite

/// One page of a search, in two steps. FTS5 finds the matches and
/// `posts_rank` scores each as FTS5's bm25 would, keeping only the best
/// `limit + offset` (`RankRequest`); then only the page's hits are read,
/// and get a snippet (`Snippet`). The best score first; equal scores in
/// rowid order, as FTS5's own ranking has them.
enum RankedPage {
    static let rankSQL = "SELECT \(FTS5Ranking.functionName)(document_fts, ?2) FROM document_fts WHERE document_fts MATCH ?1"
    /// A hit's uid and its text (`DocumentText`).
    static let hitSQL = "SELECT uid, text FROM document WHERE rowid = ?"

    /// The page's hits; `request.matches` is then the exact number of matches.
    static func fetch(_ db: Database, match: String, limit: Int, offset: Int, request: RankRequest, text: DocumentText) throws -> [SearchHit] {
        try rank(db, match: match, request: request)
        let page = request.ranked().dropFirst(offset).prefix(limit)
        guard !page.isEmpty else { return [] }
        let tokens = try TokenOffsets(db)
        let statement = try db.cachedStatement(sql: hitSQL)
        return try page.compactMap { match in
            try Row.fetchOne(statement, arguments: [match.rowid]).flatMap { try hit(match, $0[0], text.decode($0[1]), tokens) }
        }
    }

    /// The hits of a page ranked elsewhere (`ImpactRanker`), with where each
    /// matched as `instances` finds it in the hits' titles and contents (all
    /// at once); a document gone since is left out.
    static func hits(
        _ db: Database, page: [(rowid: Int64, score: Double)], text: DocumentText, instances: ([[String]]) throws -> [[PhraseInstance]]
    ) throws -> [SearchHit] {
        guard !page.isEmpty else { return [] }
        let tokens = try TokenOffsets(db)
        let statement = try db.cachedStatement(sql: hitSQL)
        let rows = try page.compactMap { rowid, score in
            try Row.fetchOne(statement, arguments: [rowid]).map { (rowid, score, $0[0] as DatabaseValue, try text.decode($0[1])) }
        }
        let found = try instances(rows.map { [$0.3.title, $0.3.content] })
        return try zip(rows, found).compactMap { row, instances in
            try hit(RankedMatch(rowid: row.0, score: row.1, instances: instances), row.2, row.3, tokens)
        }
    }

    private static func hit(
        _ match: RankedMatch, _ uid: DatabaseValue, _ text: (title: String, content: String), _ tokens: TokenOffsets
    ) throws -> SearchHit? {
        guard let uid = UUID.fromDatabaseValue(uid) else { return nil }
        let (title, content) = text
        let marked = try snippet(of: [title, content], match.instances, tokens)
        let (snippet, highlights) = Highlights.split(marked)
        return SearchHit(uid: uid, title: title, snippet: snippet, highlights: highlights, score: match.score)
    }

    /// Steps through every match (an FTS5 function cannot be an aggregate's
    /// argument), so that the request sees each.
    /// Run directly on SQLite's statement: its second parameter is a
    /// pointer, which GRDB's arguments cannot carry.
    private static func rank(_ db: Database, match: String, request: RankRequest) throws {
        let sql = rankSQL
        let statement = try db.cachedStatement(sql: sql).sqliteStatement
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        let bound = [sqlite3_bind_text(statement, 1, match, -1, transient), request.bind(to: statement, at: 2)]
        if let failed = bound.first(where: { $0 != SQLITE_OK }) { throw error(failed, db, sql) }
        var code = SQLITE_ROW
        withExtendedLifetime(request) {
            while code == SQLITE_ROW { code = sqlite3_step(statement) }
        }
        guard code == SQLITE_DONE else { throw error(code, db, sql) }
    }

    /// The marked snippet of the hit's best column.
    private static func snippet(of columns: [String], _ instances: [PhraseInstance], _ tokens: TokenOffsets) throws -> String {
        let (column, start) = Snippet.window(instances) ?? (columns.count - 1, 0)
        guard column < columns.count else { return "" }
        var text = columns[column]
        return try text.withUTF8 { bytes in
            let (offsets, complete) = try tokens.offsets(bytes, limit: start + Snippet.tokens)
            return Snippet.marked(
                bytes, offsets: offsets, complete: complete, start: start,
                highlighting: instances.filter { $0.column == column })
        }
    }

    private static func error(_ code: Int32, _ db: Database, _ sql: String) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage, sql: sql)
    }
}
