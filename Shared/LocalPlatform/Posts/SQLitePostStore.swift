import Domain
import Foundation
import GRDB

/// Domain's `PostStore` port on a SQLite file. Rules are the interactor's;
/// this only stores, pages and checks "unchanged since" atomically.
struct SQLitePostStore: PostStore {
    let store: SQLiteFile

    func page(limit: Int, after cursor: String?) async throws(PostsError) -> PostsPage {
        let after = try cursor.map { text throws(PostsError) in try PageCursor(text) }
        return try await store.read("page") { db in
            // One extra row says whether there is a next page. Two statements,
            // so the one with a cursor can seek straight to it in the index.
            let records =
                if let after {
                    try PostRecord.fetchAll(
                        db,
                        sql: """
                            SELECT * FROM post WHERE (createDate, uid) < (?, ?)
                            ORDER BY createDate DESC, uid DESC LIMIT ?
                            """, arguments: [after.createDate, after.uid, limit + 1])
                } else {
                    try PostRecord.fetchAll(db, sql: "SELECT * FROM post ORDER BY createDate DESC, uid DESC LIMIT ?", arguments: [limit + 1])
                }
            let page = PostRules.pagePrefix(records.prefix(limit)) { ($0.title, $0.content) }
            let more = records.count > page.count
            let next = more ? page.last.map { PageCursor(createDate: $0.createDate, uid: $0.uid).text } : nil
            return PostsPage(posts: page.compactMap { $0.toDomain() }, nextCursor: next)
        }
    }

    func post(uid: UUID) async throws(PostsError) -> Post? {
        try store.first("post", PostRecord.selectByUID, uid.text) { PostRecord.post(uid: uid, $0) }
    }

    func save(_ post: Post, ifUnchangedSince: Date?, key: RequestKey?) async throws(PostsError) -> Post {
        try await store.writePosts("save") { db in
            let now = Date()
            return try SQLiteRequestKeys.once(
                key, .save(post), now: now, db, answer: KeyedWrite.answer(saved:), remembered: { KeyedWrite.saved(post, answer: $0) }
            ) {
                try Self.save(post, ifUnchangedSince: ifUnchangedSince, now: now, db)
            }
        }
    }

    private static func save(_ post: Post, ifUnchangedSince: Date?, now: Date, _ db: Database) throws -> Post {
        if let ifUnchangedSince {
            let stored = try Double.fetchOne(db, sql: "SELECT updateDate FROM post WHERE uid = ?", arguments: [post.uid.uuidString])
            // Dates are kept to the millisecond: the same millisecond is unchanged.
            guard let stored, PostDate.milliseconds(Date(timeIntervalSince1970: stored)) == PostDate.milliseconds(ifUnchangedSince) else {
                throw PostsError.conflict(uid: post.uid)
            }
        }
        return try upsert(post, now: now, db)
    }

    func save(batch posts: [Post], key: RequestKey?) async throws(PostsError) -> Int {
        guard !posts.isEmpty else { return 0 }
        return try await store.writePosts("save_batch") { db in
            let now = Date()
            return try SQLiteRequestKeys.once(
                key, .batch(posts), now: now, db,
                answer: KeyedWrite.answer(count:), remembered: KeyedWrite.count(answer:)
            ) {
                try Self.upsert(batch: posts, now: now, db)
                return posts.count
            }
        }
    }

    func delete(uid: UUID, ifUnchangedSince: Date?, key: RequestKey?) async throws(PostsError) -> Bool {
        try await store.writePosts("delete") { db in
            let now = Date()
            return try SQLiteRequestKeys.once(
                key, .delete(uid: uid), now: now, db, answer: KeyedWrite.answer(deleted:), remembered: KeyedWrite.deleted(answer:)
            ) {
                if let ifUnchangedSince {
                    let stored = try Double.fetchOne(db, sql: "SELECT updateDate FROM post WHERE uid = ?", arguments: [uid.uuidString])
                    guard let stored, PostDate.milliseconds(Date(timeIntervalSince1970: stored)) == PostDate.milliseconds(ifUnchangedSince) else {
                        throw PostsError.conflict(uid: uid)
                    }
                }
                guard try PostRecord.deleteOne(db, key: uid.uuidString) else { return false }
                let sequence = try Schema.nextSequence(db)
                try db.execute(
                    sql: "INSERT OR REPLACE INTO tombstone (uid, sequence, deleteDate) VALUES (?, ?, ?)",
                    arguments: [uid.uuidString, sequence, now.timeIntervalSince1970])
                return true
            }
        }
    }

    func count() async throws(PostsError) -> Int {
        try await store.read("count") { db in try PostRecord.fetchCount(db) }
    }

    /// Insert, or update keeping the original create date; either way the
    /// post takes the next change sequence, and any tombstone for it goes.
    /// Cached statements: imports run this for every post.
    /// A post inserted, or updated keeping its create date.
    private static let upsertSQL = """
        INSERT INTO post (uid, title, content, createDate, updateDate, sequence) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT (uid) DO UPDATE SET
            title = excluded.title, content = excluded.content, updateDate = excluded.updateDate, sequence = excluded.sequence
        """

    static func upsert(_ post: Post, now: Date, _ db: Database) throws -> Post {
        let sequence = try Schema.nextSequence(db)
        let uid = post.uid.text
        let updated = PostDate.rounded(now).timeIntervalSince1970
        let upsert = try db.cachedStatement(sql: Self.upsertSQL + " RETURNING createDate")
        let created = try Double.fetchOne(
            upsert,
            arguments: [
                uid, post.title, post.content, post.createDate.timeIntervalSince1970, updated, sequence,
            ])
        try db.cachedStatement(sql: "DELETE FROM tombstone WHERE uid = ?").execute(arguments: [uid])
        var stored = post
        stored.updateDate = Date(timeIntervalSince1970: updated)
        stored.createDate = Date(timeIntervalSince1970: created ?? post.createDate.timeIntervalSince1970)
        return stored
    }

    /// `upsert` of each of `posts` in order, as many sequences taken at
    /// once (each post the next, as one by one), nothing read back (a batch
    /// answers its count), and tombstones looked up only when there are
    /// any: per post, the sequence's statement and the read-back each cost
    /// about as much as the insert itself (`callgrind.sh import-posts`).
    static func upsert(batch posts: [Post], now: Date, _ db: Database) throws {
        var sequence = try Schema.nextSequences(posts.count, db)
        let updated = PostDate.rounded(now).timeIntervalSince1970
        let insert = try db.cachedStatement(sql: Self.upsertSQL)
        let buried = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM tombstone)") ?? true
        let unbury = try db.cachedStatement(sql: "DELETE FROM tombstone WHERE uid = ?")
        for post in posts {
            let uid = post.uid.text
            try insert.execute(arguments: [uid, post.title, post.content, post.createDate.timeIntervalSince1970, updated, sequence])
            if buried { try unbury.execute(arguments: [uid]) }
            sequence += 1
        }
    }
}
