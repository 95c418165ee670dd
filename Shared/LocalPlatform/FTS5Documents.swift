import GRDB

/// Writes the documents' words into FTS5's tables of them: `document_fts`,
/// and `document_words` where the index keeps its own vocabulary. Neither
/// holds a copy of the text (contentless: the documents' own table holds
/// it, compressed, `DocumentText`), so each document's title and content
/// are given at its insert, and the same again at its removal, for FTS5 to
/// take its words out.
struct FTS5Documents {
    static let tables = ["document_fts", "document_words"]
    private let statements: [(insert: Statement, delete: Statement)]

    init(_ db: Database) throws {
        statements = try Self.tables.filter { try db.tableExists($0) }.map { table in
            try (
                db.cachedStatement(sql: "INSERT INTO \(table)(rowid, title, content) VALUES (?, ?, ?)"),
                db.cachedStatement(sql: "INSERT INTO \(table)(\(table), rowid, title, content) VALUES ('delete', ?, ?, ?)")
            )
        }
    }

    func add(_ document: ImpactRanker.Document) throws {
        for statement in statements { try statement.insert.execute(arguments: [document.rowid, document.title, document.content]) }
    }

    /// `document` must hold the text it was added with.
    func remove(_ document: ImpactRanker.Document) throws {
        for statement in statements { try statement.delete.execute(arguments: [document.rowid, document.title, document.content]) }
    }

    /// Takes every document's words out at once.
    static func removeAll(_ db: Database) throws {
        for table in try tables.filter({ try db.tableExists($0) }) {
            try db.execute(sql: "INSERT INTO \(table)(\(table)) VALUES ('delete-all')")
        }
    }
}
