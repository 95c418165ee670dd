import Domain
import Foundation
import GRDB

/// Domain's `ChangeFeed` port on a SQLite file: posts and tombstones merged
/// by change sequence. Each uid appears once, with its latest change.
struct SQLiteChangeFeed: ChangeFeed {
    let store: SQLiteFile

    func changes(after sequence: Int64, limit: Int) async throws(PostsError) -> PostChanges {
        try await store.read("changes") { db in
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT sequence, uid, title, content, createDate, updateDate, 0 AS deleted FROM post WHERE sequence > ?1
                        UNION ALL
                        SELECT sequence, uid, NULL, NULL, NULL, NULL, 1 FROM tombstone WHERE sequence > ?1
                        ORDER BY sequence LIMIT ?2
                        """), arguments: [sequence, limit])
            let page = PostRules.pagePrefix(rows[...]) { (($0[Field.title] as String?) ?? "", ($0[Field.content] as String?) ?? "") }
            let changes = page.compactMap(Self.change(from:))
            return PostChanges(changes: changes, head: try Schema.head(db), database: try Schema.identity(db))
        }
    }

    /// The query's columns, by place: a row read by name looked each name up
    /// among the columns, lower-casing every one it passed (GRDB's rule):
    /// 46 names a change, and a fifth of what serving the feed cost
    /// posts-service (56,557 → 45,820 instructions a change served).
    private enum Field {
        static let sequence = 0, uid = 1, title = 2, content = 3, createDate = 4, updateDate = 5, deleted = 6
    }

    static func change(from row: Row) -> PostChange? {
        let sequence: Int64 = row[Field.sequence]
        guard let uid = StoredUID.parse(row[Field.uid], sequence: sequence) else { return nil }
        if row[Field.deleted] as Int == 1 { return PostChange(sequence: sequence, uid: uid, kind: .delete) }
        let post = Post(
            uid: uid, title: row[Field.title], content: row[Field.content],
            createDate: Date(timeIntervalSince1970: row[Field.createDate]),
            updateDate: Date(timeIntervalSince1970: row[Field.updateDate]))
        return PostChange(sequence: sequence, uid: uid, kind: .upsert(post))
    }

    func head() async throws(PostsError) -> Int64 {
        try await store.read("head") { db in try Schema.head(db) }
    }

    var ownWritesHead: Int64? {
        let known = store.headAfterWrites.load(ordering: .acquiring)
        return known > 0 ? known : nil
    }
}
