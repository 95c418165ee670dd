import Domain
import Foundation
import GRDB
import Synchronization

enum SearchSchema {
    /// The index's migrations, in order. FTS5 held the documents' words
    /// until v9; the ranking's postings (`ImpactRanker`) hold them since.
    /// `keepingWords`: whether v4 kept the unstemmed vocabulary of whole
    /// words (an FTS5 table, for completing unfinished words; tests write
    /// old files with it). `trainingAfter`: the documents from which an index converted to
    /// compressed text (v8) trains its dictionary as it converts them.
    static func migrator(keepingWords: Bool = true, trainingAfter: Int = DocumentText.trainingDocuments) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: documents, FTS5, applied sequence") { db in
            try db.create(table: "document") { table in
                table.autoIncrementedPrimaryKey("rowid")
                table.column("uid", .text).notNull().unique()
                table.column("title", .text).notNull()
                table.column("content", .text).notNull()
            }
            try db.create(virtualTable: "document_fts", using: FTS5()) { table in
                table.synchronize(withTable: "document")
                table.tokenizer = .porter(wrapping: .unicode61())
                table.column("title")
                table.column("content")
            }
            try db.create(table: "searchState") { table in
                table.column("id", .integer).primaryKey().check { $0 == 1 }
                table.column("applied", .integer).notNull()
            }
            try db.execute(sql: "INSERT INTO searchState (id, applied) VALUES (1, 0)")
        }
        migrator.registerMigration("v2: unstemmed vocabulary for unfinished words") { db in
            try db.create(virtualTable: "document_words", using: FTS5()) { table in
                table.synchronize(withTable: "document")
                table.tokenizer = .unicode61()
                table.detail = "none"
                table.columnSize = 0
                table.column("title")
                table.column("content")
            }
            try db.execute(sql: "CREATE VIRTUAL TABLE document_vocab USING fts5vocab(document_words, row)")
        }
        migrator.registerMigration("v3: which posts database the sequence counts in") { db in
            try db.alter(table: "searchState") { table in table.add(column: "database", .text) }
        }
        migrator.registerMigration("v4: the unstemmed vocabulary only where no ranking postings replace it") { db in
            guard !keepingWords else { return }
            try db.dropFTS5SynchronizationTriggers(forTable: "document_words")
            try db.execute(sql: "DROP TABLE document_vocab; DROP TABLE document_words")
        }
        migrator.registerMigration("v5: which file of ranking postings is current") { db in
            try db.alter(table: "searchState") { table in table.add(column: "postings", .text) }
        }
        migrator.registerMigration("v6: a post's uid in 16 bytes, found through DocumentIDs, not an index on disk") { db in
            try rebuildDocuments(db)
        }
        // FTS5 merges a level's segments once 8 are there instead of 4: each
        // posting is written again fewer times. A new worker built 1M posts
        // in 47.3-49.9 s instead of 49.2-52.0 (three runs each); queries of
        // words do not read FTS5 once the ranking is loaded, and a catch-up
        // of many changes ends with 'optimize' (`compact`).
        migrator.registerMigration("v7: FTS5 merges more segments at a time") { db in
            try db.execute(sql: "INSERT INTO document_fts(document_fts, rank) VALUES ('automerge', 8)")
        }
        migrator.registerMigration("v8: each document's text in one blob, compressed once trained; FTS5 without a copy of it") { db in
            try storeTextInBlobs(db, trainingAfter: trainingAfter)
        }
        // The ranking's postings hold every word with its count per post,
        // which is all the queries need but a phrase's positions, which a
        // read of the post finds. FTS5's positions took more room than the
        // compressed text: 133 of 265 MB at a million posts.
        migrator.registerMigration("v9: no FTS5 tables; the ranking's postings hold the words") { db in
            try dropWordTables(db)
            try db.alter(table: "searchState") { table in table.add(column: "generation", .integer).notNull().defaults(to: 0) }
        }
        return migrator
    }

    /// The documents' table again, each uid in 16 bytes instead of 36
    /// characters and without the index of them that `UNIQUE` made (which
    /// SQLite cannot drop alone): the same rowids, and the same next rowid,
    /// so FTS5's index and the saved ranking postings still hold.
    private static func rebuildDocuments(_ db: Database) throws {
        let synchronized = try wordTables(in: db)
        for table in synchronized { try db.dropFTS5SynchronizationTriggers(forTable: table) }
        let next = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'document'") ?? 0
        try db.execute(
            sql: """
                CREATE TABLE document_v6 (rowid INTEGER PRIMARY KEY AUTOINCREMENT, uid BLOB NOT NULL, title TEXT NOT NULL, content TEXT NOT NULL)
                """)
        let rows = try Row.fetchCursor(db, sql: "SELECT rowid, uid, title, content FROM document")
        let insert = try db.makeStatement(sql: "INSERT INTO document_v6 (rowid, uid, title, content) VALUES (?, ?, ?, ?)")
        while let row = try rows.next() {
            guard let uid = row[1] as UUID? else { continue }  // the index wrote only UUIDs
            try insert.execute(arguments: [row[0], uid, row[2], row[3]])
        }
        try db.execute(
            sql: """
                DROP TABLE document;
                ALTER TABLE document_v6 RENAME TO document;
                UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'document';
                """, arguments: [next])
        for table in synchronized { try db.execute(sql: synchronizationTriggers(table)) }
    }

    /// The triggers that keep an FTS5 table of the documents' title and
    /// content in step with them, as GRDB's `synchronize(withTable:)` makes
    /// them.
    private static func synchronizationTriggers(_ table: String) -> String {
        let columns = "rowid, title, content"
        return """
            CREATE TRIGGER "__\(table)_ai" AFTER INSERT ON document BEGIN
                INSERT INTO \(table)(\(columns)) VALUES (new.rowid, new.title, new.content);
            END;
            CREATE TRIGGER "__\(table)_ad" AFTER DELETE ON document BEGIN
                INSERT INTO \(table)(\(table), \(columns)) VALUES('delete', old.rowid, old.title, old.content);
            END;
            CREATE TRIGGER "__\(table)_au" AFTER UPDATE ON document BEGIN
                INSERT INTO \(table)(\(table), \(columns)) VALUES('delete', old.rowid, old.title, old.content);
                INSERT INTO \(table)(\(columns)) VALUES (new.rowid, new.title, new.content);
            END;
            """
    }

    /// The id of the ranking postings' file last saved from these documents
    /// (`SQLiteSearchIndex.saveRanking`); emptying the index forgets it.
    static func savedPostings(_ db: Database) throws -> UUID? {
        try String.fetchOne(db, sql: "SELECT postings FROM searchState WHERE id = 1").flatMap(UUID.init(uuidString:))
    }

    static func forgetSavedPostings(_ id: UUID, _ db: Database) throws {
        try db.execute(sql: "UPDATE searchState SET postings = NULL WHERE postings = ?", arguments: [id.uuidString])
    }

    /// Those of FTS5's tables of the documents' words the index at `db`
    /// has (none from v9 on).
    static func wordTables(in db: Database) throws -> [String] {
        try ["document_fts", "document_words"].filter { try db.tableExists($0) }
    }

    /// FTS5's tables of the documents' words dropped, with their triggers
    /// where they have them (v7 and before).
    static func dropWordTables(_ db: Database) throws {
        for table in try wordTables(in: db) {
            try db.dropFTS5SynchronizationTriggers(forTable: table)
            try db.execute(sql: "DROP TABLE \(table)")
        }
        try db.execute(sql: "DROP TABLE IF EXISTS document_vocab")
    }

    /// Counts the writes to the documents, whichever process made them:
    /// one whose ranking is in memory knows by it that another wrote.
    static func generation(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT generation FROM searchState WHERE id = 1")) ?? 0
    }

    /// Counts a write (in its transaction): answers the generation before it.
    static func countWrite(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "UPDATE searchState SET generation = generation + 1 WHERE id = 1 RETURNING generation - 1")) ?? 0
    }

    static func applied(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT applied FROM searchState WHERE id = 1")) ?? 0
    }
}
