import Domain
import Foundation
import GRDB

/// Domain's `ChangeFeed` port on a SQLite file: posts and tombstones merged
/// by change sequence. Each uid appears once, with its latest change.
struct SQLiteChangeFeed: ChangeFeed {
    let store: SQLiteFile

    func changes(after sequence: Int64, limit: Int) async throws(PostsError) -> PostChanges {
        try await store.read("changes") { db in
            // Each row read where SQLite holds it, as the cursor steps: a row
            // copied out first (`Row.fetchAll`) decoded each column through
            // GRDB's generic path, which made a row and looked up Optional's
            // metadata at run time for every one, 9 columns a change: serving
            // a change cost posts-service 44,600 instructions, now 31,700
            // (`Tests/Benchmarks/callgrind.sh feed`).
            let rows = try Row.fetchCursor(
                db.cachedStatement(
                    sql: """
                        SELECT sequence, uid, title, content, createDate, updateDate, 0 AS deleted FROM post WHERE sequence > ?1
                        UNION ALL
                        SELECT sequence, uid, NULL, NULL, NULL, NULL, 1 FROM tombstone WHERE sequence > ?1
                        ORDER BY sequence LIMIT ?2
                        """), arguments: [sequence, limit])
            var changes: [PostChange] = []
            var page = PostRules.PageBudget()  // the page's prefix whose text fits, as `PostRules.pagePrefix`
            while let row = try rows.next() {
                let change = Self.change(from: row)
                guard page.admits(textBytes: Self.textBytes(of: change, row: row)) else { break }
                if let change { changes.append(change) }
            }
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

    /// The text a row carries, from its change when it made one.
    private static func textBytes(of change: PostChange?, row: Row) -> Int {
        switch change?.kind {
        case .upsert(let post): PostRules.textBytes(title: post.title, content: post.content)
        case .delete: 0
        case nil: PostRules.textBytes(title: (row[Field.title] as String?) ?? "", content: (row[Field.content] as String?) ?? "")
        }
    }

    func head() async throws(PostsError) -> Int64 {
        try await store.read("head") { db in try Schema.head(db) }
    }

    var ownWritesHead: Int64? {
        let known = store.headAfterWrites.load(ordering: .acquiring)
        return known > 0 ? known : nil
    }
}
