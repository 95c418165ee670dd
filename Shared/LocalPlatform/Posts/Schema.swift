import Foundation
import GRDB

/// The file's schema, as migrations. Every write takes the next value of
/// `changeSequence` in its own transaction and stamps it on the post, or on
/// a tombstone when the post is deleted: `posts.changes` reads them in order.
enum Schema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: posts, tombstones, change sequence") { db in
            try db.create(table: "post") { table in
                table.column("uid", .text).primaryKey()
                table.column("title", .text).notNull()
                table.column("content", .text).notNull()
                table.column("createDate", .double).notNull()
                table.column("updateDate", .double).notNull()
                table.column("sequence", .integer).notNull().unique()
            }
            try db.create(index: "post_newest_first", on: "post", columns: ["createDate", "uid"])
            try db.create(table: "tombstone") { table in
                table.column("uid", .text).primaryKey()
                table.column("sequence", .integer).notNull().unique()
                table.column("deleteDate", .double).notNull()
            }
            try db.create(table: "changeSequence") { table in
                table.column("id", .integer).primaryKey().check { $0 == 1 }
                table.column("value", .integer).notNull()
            }
            try db.execute(sql: "INSERT INTO changeSequence (id, value) VALUES (1, 0)")
        }
        migrator.registerMigration("v2: database identity") { db in
            try db.create(table: "databaseIdentity") { table in
                table.column("id", .integer).primaryKey().check { $0 == 1 }
                table.column("value", .text).notNull()
            }
            try db.execute(sql: "INSERT INTO databaseIdentity (id, value) VALUES (1, ?)", arguments: [UUID().uuidString])
        }
        migrator.registerMigration("v3: request keys") { db in
            try db.create(table: "requestKey") { table in
                table.column("key", .text).primaryKey()
                table.column("operation", .text).notNull()
                table.column("answer", .text).notNull()
                table.column("at", .double).notNull()
            }
            try db.create(index: "requestKey_oldest_first", on: "requestKey", columns: ["at"])
        }
        return migrator
    }

    /// Made once, with the database: readers of `posts.changes` tell a new
    /// database from the one whose sequence they followed.
    static func identity(_ db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT value FROM databaseIdentity WHERE id = 1")
    }

    /// The next change sequence; call inside the write that uses it.
    static func nextSequence(_ db: Database) throws -> Int64 {
        try nextSequences(1, db)
    }

    /// Takes `count` sequences at once (a batch's, one for each post, as
    /// taking them one by one would); returns the first. Inside a write only.
    static func nextSequences(_ count: Int, _ db: Database) throws -> Int64 {
        let statement = try db.cachedStatement(sql: "UPDATE changeSequence SET value = value + ? WHERE id = 1 RETURNING value")
        guard let last = try Int64.fetchOne(statement, arguments: [count]) else { throw DatabaseError(message: "changeSequence row is missing") }
        return last - Int64(count) + 1
    }

    static func head(_ db: Database) throws -> Int64 {
        // Cached: every write of posts reads it in its own transaction (`SQLiteFile.writePosts`).
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT value FROM changeSequence WHERE id = 1")) ?? 0
    }
}
