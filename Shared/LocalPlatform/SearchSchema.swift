import Domain
import Foundation
import GRDB
import Synchronization

enum SearchSchema {
    /// `keepingWords`: whether the index keeps its unstemmed vocabulary of
    /// whole words (an FTS5 table, for completing unfinished words). An
    /// index that loads ranking postings has them in its `ImpactRanker`,
    /// and goes without: the vocabulary costs two fifths of each insert.
    static func migrator(keepingWords: Bool = true) -> DatabaseMigrator {
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
        return migrator
    }

    /// The id of the ranking postings' file last saved from these documents
    /// (`FTS5SearchIndex.saveRanking`); emptying the index forgets it.
    static func savedPostings(_ db: Database) throws -> UUID? {
        try String.fetchOne(db, sql: "SELECT postings FROM searchState WHERE id = 1").flatMap(UUID.init(uuidString:))
    }

    static func forgetSavedPostings(_ id: UUID, _ db: Database) throws {
        try db.execute(sql: "UPDATE searchState SET postings = NULL WHERE postings = ?", arguments: [id.uuidString])
    }

    /// Whether the index has its unstemmed vocabulary (`migrator`).
    static func hasWords(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT count(*) > 0 FROM sqlite_master WHERE name = 'document_vocab'") ?? false
    }

    static func applied(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT applied FROM searchState WHERE id = 1")) ?? 0
    }
}
