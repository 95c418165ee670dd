import Domain
import Foundation
import GRDB

/// Domain.PostChangesUseCase on a SQLite file: posts and tombstones merged
/// by change sequence. Each uid appears once, with its latest change.
struct LocalPostChangesUseCase: PostChangesUseCase {
    let store: PostsStore

    func changes(after sequence: Int64, limit: Int) async throws(PostsError) -> PostChanges {
        guard sequence >= 0 else { throw .invalid(field: "after", rule: "must be 0 or more (it is \(sequence))") }
        let limit = try PostRules.validatedLimit(limit)
        return try await store.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT sequence, uid, title, content, createDate, updateDate, 0 AS deleted FROM post WHERE sequence > ?1
                UNION ALL
                SELECT sequence, uid, NULL, NULL, NULL, NULL, 1 FROM tombstone WHERE sequence > ?1
                ORDER BY sequence LIMIT ?2
                """, arguments: [sequence, limit])
            var bytes = 0
            var changes: [PostChange] = []
            for row in rows {
                // Bounded like pages of posts, to stay inside the gateway's frame limit.
                bytes += ((row["title"] as String?)?.utf8.count ?? 0) + ((row["content"] as String?)?.utf8.count ?? 0)
                if bytes > PostRules.maxPageBytes && !changes.isEmpty { break }
                if let change = Self.change(from: row) { changes.append(change) }
            }
            return PostChanges(changes: changes, head: try Schema.head(db), database: try Schema.identity(db))
        }
    }

    static func change(from row: Row) -> PostChange? {
        guard let uid = StoredUID.parse(row["uid"], sequence: row["sequence"]) else { return nil }
        if row["deleted"] as Int == 1 { return PostChange(sequence: row["sequence"], uid: uid, kind: .delete) }
        let post = Post(uid: uid, title: row["title"], content: row["content"],
                        createDate: Date(timeIntervalSince1970: row["createDate"]),
                        updateDate: Date(timeIntervalSince1970: row["updateDate"]))
        return PostChange(sequence: row["sequence"], uid: uid, kind: .upsert(post))
    }

    func head() async throws(PostsError) -> Int64 {
        try await store.read { db in try Schema.head(db) }
    }
}

struct LocalStatusUseCase: StatusUseCase {
    let store: PostsStore

    func status() async throws(PostsError) -> SystemStatus {
        let count = try await store.read { db in try PostRecord.fetchCount(db) }
        return SystemStatus(source: store.path, uptimeSeconds: nil, services: [], workers: [], posts: count)
    }
}
