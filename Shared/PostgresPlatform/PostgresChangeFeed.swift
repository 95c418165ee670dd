import Domain
import Foundation
import PostgresNIO

/// Domain's `ChangeFeed` port on PostgreSQL: posts and tombstones merged by
/// change sequence, read in one snapshot with the head (gap-free: `Schema`).
struct PostgresChangeFeed: ChangeFeed {
    let database: PostgresDatabase

    typealias Row = (Int64, UUID, String?, String?, Int64?, Int64?)

    func changes(after sequence: Int64, limit: Int) async throws(PostsError) -> PostChanges {
        try await database.read("changes") { connection, logger in
            let rows = try await connection.query(
                """
                SELECT sequence, uid, title, content, create_ms, update_ms FROM post WHERE sequence > \(sequence)
                UNION ALL
                SELECT sequence, uid, NULL, NULL, NULL, NULL FROM tombstone WHERE sequence > \(sequence)
                ORDER BY 1 LIMIT \(limit)
                """, logger: logger)
            var read: [Row] = []
            for try await row in rows.decode(Row.self) { read.append(row) }
            let changes = PostRules.pagePrefix(read[...]) { ($0.2 ?? "", $0.3 ?? "") }.map(Self.change)
            return PostChanges(
                changes: changes, head: try await Schema.head(connection, logger: logger),
                database: try await Schema.identity(connection, logger: logger))
        }
    }

    static func change(_ row: Row) -> PostChange {
        guard let title = row.2, let content = row.3, let created = row.4, let updated = row.5 else {
            return PostChange(sequence: row.0, uid: row.1, kind: .delete)
        }
        let post = Post(
            uid: row.1, title: title, content: content, createDate: PostDate.date(milliseconds: created),
            updateDate: PostDate.date(milliseconds: updated))
        return PostChange(sequence: row.0, uid: row.1, kind: .upsert(post))
    }

    func head() async throws(PostsError) -> Int64 {
        try await database.read("head") { connection, logger in try await Schema.head(connection, logger: logger) }
    }

    /// Other processes on the database announce their own.
    var ownWritesHead: Int64? {
        let known = database.headAfterWrites.load(ordering: .acquiring)
        return known > 0 ? known : nil
    }
}
