import Foundation
import GRDB

extension SearchSchema {
    /// FTS5's tables of the documents' words, without a copy of their text
    /// (`FTS5Documents` writes them).
    static let wordsOfDocuments = """
        CREATE VIRTUAL TABLE document_fts USING fts5(title, content, content='', tokenize='porter unicode61');
        INSERT INTO document_fts(document_fts, rank) VALUES ('automerge', 8);
        """
    static let unstemmedWords = """
        CREATE VIRTUAL TABLE document_words USING fts5(title, content, content='', tokenize='unicode61', detail=none, columnsize=0);
        CREATE VIRTUAL TABLE document_vocab USING fts5vocab(document_words, row);
        """

    /// The documents' table again, each title and content in one blob
    /// (`DocumentText`: compressed with a dictionary trained here from them
    /// when there are `trainingAfter` or more, plain otherwise), and FTS5's
    /// tables made again without a copy of the text, their words written
    /// from the documents: the same rowids, and the same next rowid, so the
    /// saved ranking postings still hold. Once, as long as FTS5 takes to
    /// index every document again.
    static func storeTextInBlobs(_ db: Database, trainingAfter: Int) throws {
        let hadWords = try db.tableExists("document_words")
        for table in try FTS5Documents.tables(in: db) { try db.dropFTS5SynchronizationTriggers(forTable: table) }
        let next = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'document'") ?? 0
        try db.execute(
            sql: """
                DROP TABLE IF EXISTS document_vocab;
                DROP TABLE IF EXISTS document_words;
                DROP TABLE document_fts;
                ALTER TABLE document RENAME TO document_v7;
                CREATE TABLE document (rowid INTEGER PRIMARY KEY AUTOINCREMENT, uid BLOB NOT NULL, text BLOB NOT NULL);
                \(wordsOfDocuments)
                \(hadWords ? unstemmedWords : "")
                ALTER TABLE searchState ADD COLUMN textDictionary BLOB;
                """)
        let text = try convertedText(db, trainingAfter: trainingAfter)
        let words = try FTS5Documents(db)
        let insert = try db.makeStatement(sql: "INSERT INTO document (rowid, uid, text) VALUES (?, ?, ?)")
        let rows = try Row.fetchCursor(db, sql: "SELECT rowid, uid, \(oldText) FROM document_v7")
        while let row = try rows.next() {
            let document: ImpactRanker.Document = (row[0], oldString(row, 2), oldString(row, 3))
            try insert.execute(arguments: [document.rowid, row[1] as Data, text.encode(title: document.title, content: document.content)])
            try words.add(document)
        }
        try db.execute(
            sql: """
                DROP TABLE document_v7;
                DELETE FROM sqlite_sequence WHERE name = 'document';
                INSERT INTO sqlite_sequence (name, seq) VALUES ('document', max(?, (SELECT coalesce(max(rowid), 0) FROM document)));
                """, arguments: [next])
    }

    /// Whether `migrator` will convert documents at `db` to blobs: an index
    /// written before (v7 or earlier), not a new one.
    static func convertsText(_ migrator: DatabaseMigrator, _ db: Database) throws -> Bool {
        let applied = try migrator.appliedIdentifiers(db)
        return !applied.isEmpty && !applied.contains { $0.hasPrefix("v8:") }
    }

    /// After a conversion: the file again at the size of what it holds
    /// (VACUUM), and its log emptied. The old tables' room would otherwise
    /// stay in the file, free, until new posts took it: an index of a
    /// million posts was 459 MiB after its conversion instead of 253.
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
