import Foundation
import GRDB
import Search

extension SearchSchema {
    /// The documents' table again, each title and content in one blob
    /// (`DocumentText`: compressed with a dictionary trained here from them
    /// when there are `trainingAfter` or more, plain otherwise): the same
    /// rowids, and the same next rowid, so the saved ranking postings still
    /// hold. FTS5's tables are dropped (as v9 does; the v8 of an earlier
    /// build made them again without a copy of the text).
    static func storeTextInBlobs(_ db: Database, trainingAfter: Int) throws {
        try dropWordTables(db)
        let next = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'document'") ?? 0
        try db.execute(
            sql: """
                ALTER TABLE document RENAME TO document_v7;
                CREATE TABLE document (rowid INTEGER PRIMARY KEY AUTOINCREMENT, uid BLOB NOT NULL, text BLOB NOT NULL);
                ALTER TABLE searchState ADD COLUMN textDictionary BLOB;
                """)
        let text = try convertedText(db, trainingAfter: trainingAfter)
        let insert = try db.makeStatement(sql: "INSERT INTO document (rowid, uid, text) VALUES (?, ?, ?)")
        let rows = try Row.fetchCursor(db, sql: "SELECT rowid, uid, \(oldText) FROM document_v7")
        while let row = try rows.next() {
            let document: ImpactRanker.Document = (row[0], oldString(row, 2), oldString(row, 3))
            try insert.execute(arguments: [document.rowid, row[1] as Data, text.encode(title: document.title, content: document.content)])
        }
        try db.execute(
            sql: """
                DROP TABLE document_v7;
                DELETE FROM sqlite_sequence WHERE name = 'document';
                INSERT INTO sqlite_sequence (name, seq) VALUES ('document', max(?, (SELECT coalesce(max(rowid), 0) FROM document)));
                """, arguments: [next])
    }

    /// Whether `migrator` will convert documents at `db` to blobs or drop
    /// FTS5's tables: an index written before (v8 or earlier), not a new one.
    static func dropsTables(_ migrator: DatabaseMigrator, _ db: Database) throws -> Bool {
        let applied = try migrator.appliedIdentifiers(db)
        return !applied.isEmpty && !applied.contains { $0.hasPrefix("v9:") }
    }

    /// After a conversion or a drop: the file again at the size of what it
    /// holds (VACUUM), and its log emptied. The old tables' room would
    /// otherwise stay in the file, free, until new posts took it: an index
    /// of a million posts was 459 MiB after its conversion instead of 253.
    static func giveBackRoom(_ queue: DatabaseQueue) throws {
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "VACUUM")
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    /// The old documents' title and content, as blobs: GRDB's strings end
    /// at a NUL, and FTS5 indexed what came after one.
    private static let oldText = "CAST(title AS BLOB), CAST(content AS BLOB)"

    private static func oldString(_ row: Row, _ column: Int) -> String {
        String(decoding: row[column] as Data? ?? Data(), as: UTF8.self)
    }

    /// The text the converted documents are stored with: compressed with a
    /// dictionary trained from at most `DocumentText.trainingDocuments` of
    /// them, spread evenly by rowid, when there are `trainingAfter` or
    /// more (saved in the index); plain otherwise, or should zstd make
    /// none. So a large index is compressed as it is converted, not
    /// rewritten again at its next write.
    private static func convertedText(_ db: Database, trainingAfter: Int) throws -> DocumentText {
        let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM document_v7") ?? 0
        guard count >= trainingAfter else { return DocumentText() }
        let trained = try DocumentText.trained(db, documents: count) { every in
            let rows = try Row.fetchCursor(db, sql: "SELECT \(oldText) FROM document_v7 WHERE rowid % ? = 0", arguments: [every])
            var samples: [Data] = []
            while let row = try rows.next() { samples.append(DocumentText.text(title: oldString(row, 0), content: oldString(row, 1))) }
            return samples
        }
        return trained ?? DocumentText()
    }
}
