import GRDB
import GRDBSQLite

/// Writes the documents' words into FTS5's tables of them: `document_fts`,
/// and `document_words` where the index keeps its own vocabulary. Neither
/// holds a copy of the text (contentless: the documents' own table holds
/// it, compressed, `DocumentText`), so each document's title and content
/// are given at its insert, and the same again at its removal, for FTS5 to
/// take its words out.
///
/// Run on SQLite's statements directly, the text bound where it lies, not
/// copied: each runs once per document. Writing 300,000 posts in pages of
/// 5,000 into a file index (texts stored plain) then took as long as the
/// triggers that wrote FTS5 before, 11.6 s against 11.6-11.9 s
/// (docs/BENCHMARKS.md).
struct FTS5Documents {
    /// Those of FTS5's tables of the documents' words the index at `db` has.
    static func tables(in db: Database) throws -> [String] {
        try ["document_fts", "document_words"].filter { try db.tableExists($0) }
    }

    private let statements: [(insert: Statement, delete: Statement)]
    private let db: Database

    init(_ db: Database) throws {
        self.db = db
        statements = try Self.tables(in: db).map { table in
            try (
                db.cachedStatement(sql: "INSERT INTO \(table)(rowid, title, content) VALUES (?, ?, ?)"),
                db.cachedStatement(sql: "INSERT INTO \(table)(\(table), rowid, title, content) VALUES ('delete', ?, ?, ?)")
            )
        }
    }

    func add(_ document: ImpactRanker.Document) throws {
        for statement in statements { try run(statement.insert, document) }
    }

    /// `document` must hold the text it was added with.
    func remove(_ document: ImpactRanker.Document) throws {
        for statement in statements { try run(statement.delete, document) }
    }

    private func run(_ statement: Statement, _ document: ImpactRanker.Document) throws {
        let handle = statement.sqliteStatement
        var (title, content) = (document.title, document.content)
        let code = title.withUTF8 { title in
            content.withUTF8 { content in
                sqlite3_reset(handle)
                defer { sqlite3_clear_bindings(handle) }  // before the texts go
                let bound = [
                    sqlite3_bind_int64(handle, 1, document.rowid), Self.bind(title, to: handle, at: 2), Self.bind(content, to: handle, at: 3),
                ]
                return bound.first { $0 != SQLITE_OK } ?? sqlite3_step(handle)
            }
        }
        sqlite3_reset(handle)
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage, sql: statement.sql)
        }
    }

    /// Binds `text` as it lies (SQLite reads it only while the statement steps).
    private static func bind(_ text: UnsafeBufferPointer<UInt8>, to handle: OpaquePointer, at index: Int32) -> Int32 {
        // An empty text has no address: SQLite copies an empty one (TRANSIENT) instead.
        guard let start = text.baseAddress else {
            return sqlite3_bind_text(handle, index, "", 0, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        }
        return start.withMemoryRebound(to: CChar.self, capacity: text.count) { sqlite3_bind_text(handle, index, $0, Int32(text.count), nil) }
    }

    /// Takes every document's words out at once.
    static func removeAll(_ db: Database) throws {
        for table in try tables(in: db) {
            try db.execute(sql: "INSERT INTO \(table)(\(table)) VALUES ('delete-all')")
        }
    }
}
