import Foundation
import Logging
import PostgresNIO

/// The database's schema, made at start by whichever posts-service comes
/// first: the steps run in one transaction under an advisory lock, so
/// processes starting together wait for each other instead of racing.
///
/// The change feed is gap-free under concurrent writers on any number of
/// hosts: every write transaction first locks the one `change_sequence` row
/// (`lockSequence`) and takes its next value there. The lock is held until
/// commit, so the transaction with sequence N+1 cannot even get its number
/// before the one with N has committed (or rolled back, giving N back).
/// Sequences therefore commit in order, and a reader that has applied N
/// never later meets a smaller number. A plain sequence or identity column
/// hands out numbers at insert time, and commits in any order.
enum Schema {
    /// Any 64-bit constant shared by every posts-service: "posts" in ASCII.
    static let migrationLock: Int64 = 0x706F_7374_73

    static let steps: [PostgresQuery] = [
        """
        CREATE TABLE IF NOT EXISTS post (
            uid uuid PRIMARY KEY, title text NOT NULL, content text NOT NULL,
            create_ms bigint NOT NULL, update_ms bigint NOT NULL, sequence bigint NOT NULL UNIQUE)
        """,
        "CREATE INDEX IF NOT EXISTS post_newest_first ON post (create_ms DESC, uid DESC)",
        "CREATE TABLE IF NOT EXISTS tombstone (uid uuid PRIMARY KEY, sequence bigint NOT NULL UNIQUE, delete_ms bigint NOT NULL)",
        "CREATE TABLE IF NOT EXISTS change_sequence (id int PRIMARY KEY CHECK (id = 1), value bigint NOT NULL)",
        "INSERT INTO change_sequence (id, value) VALUES (1, 0) ON CONFLICT (id) DO NOTHING",
        "CREATE TABLE IF NOT EXISTS database_identity (id int PRIMARY KEY CHECK (id = 1), value text NOT NULL)",
        "INSERT INTO database_identity (id, value) VALUES (1, upper(gen_random_uuid()::text)) ON CONFLICT (id) DO NOTHING",
        "CREATE TABLE IF NOT EXISTS request_key (key text PRIMARY KEY, operation text NOT NULL, answer text NOT NULL, at_ms bigint NOT NULL)",
        "CREATE INDEX IF NOT EXISTS request_key_oldest_first ON request_key (at_ms)",
    ]

    static func migrate(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(migrationLock))", logger: logger)
            for step in steps { try await connection.query(step, logger: logger) }
        }
    }

    /// The first statement of every write: see above.
    static let lockSequence: PostgresQuery = "SELECT value FROM change_sequence WHERE id = 1 FOR UPDATE"

    /// Takes `count` sequences; returns the first. Inside a write only.
    static func nextSequences(_ count: Int, _ connection: PostgresConnection, logger: Logger) async throws -> Int64 {
        let rows = try await connection.query(
            "UPDATE change_sequence SET value = value + \(Int64(count)) WHERE id = 1 RETURNING value", logger: logger)
        for try await last in rows.decode(Int64.self) { return last - Int64(count) + 1 }
        throw PostgresSchemaError("the change_sequence row is missing")
    }

    static func head(_ connection: PostgresConnection, logger: Logger) async throws -> Int64 {
        for try await value in try await connection.query("SELECT value FROM change_sequence WHERE id = 1", logger: logger).decode(Int64.self) {
            return value
        }
        return 0
    }

    static func identity(_ connection: PostgresConnection, logger: Logger) async throws -> String? {
        for try await value in try await connection.query("SELECT value FROM database_identity WHERE id = 1", logger: logger).decode(String.self) {
            return value
        }
        return nil
    }
}
