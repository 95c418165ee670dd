import Domain
import Foundation
import Logging
import PostgresNIO

/// Domain's `PostStore` port on PostgreSQL: the same behaviour as the
/// SQLite one (the contract suite runs on both), dates kept as integer
/// milliseconds.
struct PostgresPostStore: PostStore {
    let database: PostgresDatabase

    typealias Row = (UUID, String, String, Int64, Int64)

    func page(limit: Int, after cursor: String?) async throws(PostsError) -> PostsPage {
        let after = try cursor.map { text throws(PostsError) in try Cursor(text) }
        let rows = try await database.statement("page") { client, logger in
            let query: PostgresQuery =
                if let after {
                    """
                    SELECT uid, title, content, create_ms, update_ms FROM post WHERE (create_ms, uid) < (\(after.createMilliseconds), \(after.uid))
                    ORDER BY create_ms DESC, uid DESC LIMIT \(limit + 1)
                    """
                } else {
                    "SELECT uid, title, content, create_ms, update_ms FROM post ORDER BY create_ms DESC, uid DESC LIMIT \(limit + 1)"
                }
            var rows: [Post] = []
            for try await row in try await client.query(query, logger: logger).decode(Row.self) { rows.append(Self.post(row)) }
            return rows
        }
        let page = PostRules.pagePrefix(rows.prefix(limit)) { ($0.title, $0.content) }
        let next =
            rows.count > page.count ? page.last.map { Cursor(createMilliseconds: PostDate.milliseconds($0.createDate), uid: $0.uid).text } : nil
        return PostsPage(posts: Array(page), nextCursor: next)
    }

    func post(uid: UUID) async throws(PostsError) -> Post? {
        try await database.statement("post") { client, logger in
            let rows = try await client.query("SELECT uid, title, content, create_ms, update_ms FROM post WHERE uid = \(uid)", logger: logger)
            for try await row in rows.decode(Row.self) { return Self.post(row) }
            return nil
        }
    }

    func save(_ post: Post, ifUnchangedSince: Date?, key: RequestKey?) async throws(PostsError) -> Post {
        let now = PostDate.milliseconds(Date())
        let stamp = Stamp()
        return try await noting(stamp) { () async throws(PostsError) in
            guard key != nil || ifUnchangedSince != nil else {
                return try await database.statement("save") { client, logger in
                    try await Self.upsert([post], now: now, stamp) { try await client.query($0, logger: logger) }[0]
                }
            }
            return try await database.write("save") { connection, logger in
                // The sequence lock is held: nobody else writes until commit.
                try await PostgresRequestKeys.once(
                    key, .save(post), now: now, connection, logger: logger,
                    answer: KeyedWrite.answer(saved:), remembered: { KeyedWrite.saved(post, answer: $0) }
                ) {
                    if let ifUnchangedSince {
                        var stored: Int64?
                        let rows = try await connection.query("SELECT update_ms FROM post WHERE uid = \(post.uid)", logger: logger)
                        for try await value in rows.decode(Int64.self) { stored = value }
                        guard stored == PostDate.milliseconds(ifUnchangedSince) else { throw PostsError.conflict(uid: post.uid) }
                    }
                    return try await Self.upsert([post], now: now, stamp) { try await connection.query($0, logger: logger) }[0]
                }
            }
        }
    }

    func save(batch posts: [Post], key: RequestKey?) async throws(PostsError) -> Int {
        guard !posts.isEmpty else { return 0 }
        let now = PostDate.milliseconds(Date())
        let stamp = Stamp()
        return try await noting(stamp) { () async throws(PostsError) in
            guard let key else {
                return try await database.statement("save_batch") { client, logger in
                    try await Self.upsert(posts, now: now, stamp) { try await client.query($0, logger: logger) }.count
                }
            }
            return try await database.write("save_batch") { connection, logger in
                try await PostgresRequestKeys.once(
                    key, .batch(posts), now: now, connection, logger: logger,
                    answer: KeyedWrite.answer(count:), remembered: KeyedWrite.count(answer:)
                ) {
                    try await Self.upsert(posts, now: now, stamp) { try await connection.query($0, logger: logger) }.count
                }
            }
        }
    }

    func delete(uid: UUID, ifUnchangedSince: Date?, key: RequestKey?) async throws(PostsError) -> Bool {
        let now = PostDate.milliseconds(Date())
        let stamp = Stamp()
        return try await noting(stamp) { () async throws(PostsError) in
            return try await database.write("delete") { connection, logger in
                try await PostgresRequestKeys.once(
                    key, .delete(uid: uid), now: now, connection, logger: logger,
                    answer: KeyedWrite.answer(deleted:), remembered: KeyedWrite.deleted(answer:)
                ) {
                    var deleted = false
                    let rows =
                        if let ifUnchangedSince {
                            try await connection.query(
                                "DELETE FROM post WHERE uid = \(uid) AND update_ms = \(PostDate.milliseconds(ifUnchangedSince)) RETURNING uid",
                                logger: logger)
                        } else {
                            try await connection.query("DELETE FROM post WHERE uid = \(uid) RETURNING uid", logger: logger)
                        }
                    for try await _ in rows.decode(UUID.self) { deleted = true }
                    if !deleted, ifUnchangedSince != nil { throw PostsError.conflict(uid: uid) }
                    guard deleted else { return false }
                    let sequence = try await Schema.nextSequences(1, connection, logger: logger)
                    stamp.took(sequence)
                    try await connection.query(
                        """
                        INSERT INTO tombstone (uid, sequence, delete_ms) VALUES (\(uid), \(sequence), \(now))
                        ON CONFLICT (uid) DO UPDATE SET sequence = excluded.sequence, delete_ms = excluded.delete_ms
                        """, logger: logger)
                    return true
                }
            }
        }
    }

    /// `body`, then what its writes took kept as the head they left: only
    /// once it succeeded (committed), so a rolled-back sequence is never
    /// announced.
    private func noting<T>(_ stamp: Stamp, _ body: () async throws(PostsError) -> T) async throws(PostsError) -> T {
        let value = try await body()
        database.noteWrite(stamp)
        return value
    }

    func count() async throws(PostsError) -> Int {
        try await database.read("count") { connection, logger in
            for try await count in try await connection.query("SELECT count(*) FROM post", logger: logger).decode(Int64.self) {
                return Int(count)
            }
            return 0
        }
    }

    typealias Query = (PostgresQuery) async throws -> PostgresRowSequence

    /// Inserts or updates distinct posts in one statement, keeping each one's
    /// first create date. Its first step takes the sequences (`value + n`,
    /// post i getting `first + i`), which locks the sequence row first, as
    /// every write does; the tombstones of the posts go in its last step.
    static func upsert(_ posts: [Post], now: Int64, _ stamp: Stamp, _ query: Query) async throws -> [Post] {
        let uids = posts.map(\.uid)
        let titles = posts.map(\.title)
        let contents = posts.map(\.content)
        let created = posts.map { PostDate.milliseconds($0.createDate) }
        let count = Int64(posts.count)
        let rows = try await query(
            """
            WITH taken AS (UPDATE change_sequence SET value = value + \(count) WHERE id = 1 RETURNING value - \(count) AS base),
                 cleared AS (DELETE FROM tombstone WHERE uid = ANY(\(uids)::uuid[]) AND EXISTS (SELECT 1 FROM taken))
            INSERT INTO post (uid, title, content, create_ms, update_ms, sequence)
            SELECT u, t, c, cr, \(now), taken.base + n FROM taken,
                unnest(\(uids)::uuid[], \(titles)::text[], \(contents)::text[], \(created)::bigint[]) WITH ORDINALITY AS x(u, t, c, cr, n)
            ON CONFLICT (uid) DO UPDATE SET title = excluded.title, content = excluded.content,
                update_ms = excluded.update_ms, sequence = excluded.sequence
            RETURNING uid, create_ms, sequence
            """)
        var createdBy: [UUID: Int64] = [:]
        for try await (uid, create, sequence) in rows.decode((UUID, Int64, Int64).self) {
            createdBy[uid] = create
            stamp.took(sequence)
        }
        return posts.map { post in
            var stored = post
            stored.createDate = PostDate.date(milliseconds: createdBy[post.uid] ?? PostDate.milliseconds(post.createDate))
            stored.updateDate = PostDate.date(milliseconds: now)
            return stored
        }
    }

    static func post(_ row: Row) -> Post {
        Post(
            uid: row.0, title: row.1, content: row.2, createDate: PostDate.date(milliseconds: row.3),
            updateDate: PostDate.date(milliseconds: row.4))
    }

    /// Where a page ends: the last post's create date (milliseconds) and uid.
    struct Cursor {
        var createMilliseconds: Int64
        var uid: UUID

        init(createMilliseconds: Int64, uid: UUID) { (self.createMilliseconds, self.uid) = (createMilliseconds, uid) }

        init(_ text: String) throws(PostsError) {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0] == "p1", let milliseconds = Int64(parts[1]), let uid = UUID(text: parts[2]) else {
                throw .invalid("cursor", .unknownCursor(text))
            }
            (createMilliseconds, self.uid) = (milliseconds, uid)
        }

        var text: String { "p1:\(createMilliseconds):\(uid.uuidString)" }
    }
}
