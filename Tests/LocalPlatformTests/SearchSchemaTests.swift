import Domain
import Foundation
import GRDB
@testable import LocalPlatform
import TestSupport
import TestTraits
import Testing

/// An index file written before uids took 16 bytes (schema v5: each uid in
/// 36 characters, with an index of them) is taken up as it is: nothing to
/// rebuild from the feed, the same hits, and changes after it land where
/// they would have.
@Suite("Search index files of an earlier schema", .ownThread, .timeLimit(.minutes(5)))
struct SearchSchemaTests {
    /// An index file at `path` as a build of schema v5 wrote it: `posts`
    /// added as that build added them (uids as text), then `sql` run.
    private func writtenByV5(at path: String, keepingWords: Bool, _ posts: [Post], then sql: String) async throws {
        let queue = try DatabaseQueue(path: path)
        try SearchSchema.migrator(keepingWords: keepingWords).migrate(queue, upTo: "v5: which file of ranking postings is current")
        try await queue.write { db in
            for post in posts {
                try db.execute(
                    sql: "INSERT INTO document (uid, title, content) VALUES (?, ?, ?)", arguments: [post.uid.uuidString, post.title, post.content])
            }
            try db.execute(sql: sql)
        }
        try queue.close()
    }

    @Test func test_anIndexWrittenWithTextUIDs_isTakenUp_andChangedAsBefore() async throws {
        try await withTemporaryDirectory("schema") { directory in
            let path = directory + "/search.sqlite"
            let kept = Post(title: "Kept post", content: "alpha words")
            let edited = Post(title: "Edited post", content: "beta words")
            let gone = Post(title: "Gone post", content: "gamma words")
            // The last post was deleted: the next rowid stays past it.
            try await writtenByV5(
                at: path, keepingWords: false, [kept, edited, gone],
                then: "DELETE FROM document WHERE rowid = 3; UPDATE searchState SET applied = 3 WHERE id = 1")
            let index = try SQLiteSearchIndex(path: path, exclusive: true)
            try await index.loadRanking()
            #expect(try await index.search("words", limit: 10, offset: 0).hits.map(\.uid) == [kept.uid, edited.uid])
            #expect(try await index.position().applied == 3, "nothing to apply again")

            var changed = edited
            changed.content = "delta words"
            try await index.apply(
                [PostChange(sequence: 4, uid: changed.uid, kind: .upsert(changed)), PostChange(sequence: 5, uid: kept.uid, kind: .delete)],
                position: IndexPosition(applied: 5, database: nil))
            #expect(try await index.search("beta", limit: 10, offset: 0).hits.isEmpty, "the edit replaced the old document")
            #expect(try await index.search("delta", limit: 10, offset: 0).hits.map(\.uid) == [edited.uid])
            #expect(try await index.search("alpha", limit: 10, offset: 0).hits.isEmpty, "the delete found the old document")
            #expect(try await index.documentCount() == 1)
            let rowids = try await DatabaseQueue(path: path).read { db in try Int64.fetchAll(db, sql: "SELECT rowid FROM document") }
            #expect(rowids == [4], "a new document comes past every rowid the old file used")
        }
    }

    /// A large enough index written before documents were compressed
    /// (schema v7 and earlier) is compressed as it is converted, at its
    /// first start: the same hits as the posts it held.
    @Test func test_anIndexOfPlainText_isCompressedAsItIsConverted_andFindsTheSame() async throws {
        try await withTemporaryDirectory("schema") { directory in
            let path = directory + "/search.sqlite"
            let posts = DocumentTextTests.texts(count: 300).map { Post(title: $0.title, content: $0.content) }
            try await writtenByV5(at: path, keepingWords: false, posts, then: "UPDATE searchState SET applied = \(posts.count) WHERE id = 1")
            let index = try SQLiteSearchIndex(path: path, exclusive: true, trainingAfter: 200)
            let compressed = try await DatabaseQueue(path: path).read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM document WHERE hex(substr(text, 1, 1)) = '01'") ?? 0
            }
            #expect(compressed > 250, "compressed by the conversion, before any write")
            let free = try await DatabaseQueue(path: path).read { db in try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? -1 }
            #expect(free == 0, "the old tables' room given back")
            #expect(try await Self.tables(path) == ["document", "searchState"], "no FTS5 table left")
            let plain = try SQLiteSearchIndex()
            try await plain.apply(
                posts.enumerated().map { PostChange(sequence: Int64($0.offset + 1), uid: $0.element.uid, kind: .upsert($0.element)) },
                position: IndexPosition(applied: Int64(posts.count), database: nil))
            for query in ["kernel", "socket modu", "\"the file\"", "進程"] {
                let found = try await index.search(query, limit: 500, offset: 0)
                let expected = try await plain.search(query, limit: 500, offset: 0)
                // The posts were written as they are, not as `apply` writes them (unmarked): scores may differ in their last digits.
                #expect(!expected.hits.isEmpty && Set(found.hits.map(\.uid)) == Set(expected.hits.map(\.uid)), "\(query)")
                #expect(found.total == expected.total && found.hits.allSatisfy { !$0.title.isEmpty || !$0.snippet.isEmpty }, "\(query)")
            }
        }
    }

    /// The tables of the index file at `path` (SQLite's own left out).
    private static func tables(_ path: String) async throws -> [String] {
        try await DatabaseQueue(path: path).read { db in
            try String.fetchAll(
                db,
                sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'grdb_migrations' ORDER BY name")
        }
    }

    /// An index file as the first build of schema v8 left it: its text in
    /// blobs, and FTS5's contentless tables of its words beside them. At
    /// its first start they are dropped (v9), the file vacuumed, and
    /// searches find what they found.
    @Test func test_anIndexWithFTS5Tables_losesThem_andTheirRoom_andFindsTheSame() async throws {
        try await withTemporaryDirectory("schema") { directory in
            let path = directory + "/search.sqlite"
            let posts = DocumentTextTests.texts(count: 300).map { Post(title: $0.title, content: $0.content) }
            let changes = posts.enumerated().map { PostChange(sequence: Int64($0.offset + 1), uid: $0.element.uid, kind: .upsert($0.element)) }
            let written = try SQLiteSearchIndex(path: path, exclusive: true)
            try await written.apply(changes, position: IndexPosition(applied: Int64(posts.count), database: nil))
            let queue = try DatabaseQueue(path: path)
            try await queue.write { db in
                try db.execute(
                    sql: """
                        DELETE FROM grdb_migrations WHERE identifier LIKE 'v9:%';
                        ALTER TABLE searchState DROP COLUMN generation;
                        CREATE VIRTUAL TABLE document_fts USING fts5(title, content, content='', tokenize='porter unicode61');
                        """)
                for post in posts {
                    try db.execute(sql: "INSERT INTO document_fts (title, content) VALUES (?, ?)", arguments: [post.title, post.content])
                }
            }
            try await queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
            try queue.close()
            let before = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
            let index = try SQLiteSearchIndex(path: path, exclusive: true)
            #expect(try await Self.tables(path) == ["document", "searchState"])
            let after = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
            #expect(after < before, "FTS5's room given back: \(before) → \(after) bytes")
            let fresh = try SQLiteSearchIndex()
            try await fresh.apply(changes, position: IndexPosition(applied: Int64(posts.count), database: nil))
            for query in ["kernel", "socket modu", "\"the file\"", "進程", "\"the file\" kernel"] {
                let found = try await index.search(query, limit: 500, offset: 0)
                let expected = try await fresh.search(query, limit: 500, offset: 0)
                #expect(!expected.hits.isEmpty && found.hits == expected.hits && found.total == expected.total, "\(query)")
            }
        }
    }

    /// An index that kept its own vocabulary of whole words (before v9)
    /// completes words from its ranking after the change.
    @Test func test_anIndexWithItsOwnVocabulary_stillCompletesWordsOfPostsAddedAfter() async throws {
        try await withTemporaryDirectory("schema") { directory in
            let path = directory + "/search.sqlite"
            let old = Post(title: "Notes", content: "connections everywhere")
            try await writtenByV5(at: path, keepingWords: true, [old], then: "UPDATE searchState SET applied = 1 WHERE id = 1")
            let index = try SQLiteSearchIndex(path: path, exclusive: true)
            let new = Post(title: "Weather", content: "Running in the rain")
            try await index.apply([PostChange(sequence: 2, uid: new.uid, kind: .upsert(new))], position: IndexPosition(applied: 2, database: nil))
            // Stemmed, "running" is `run` and "connections" `connect`: only the vocabulary completes these.
            #expect(try await index.search("runni", limit: 10, offset: 0).hits.map(\.uid) == [new.uid])
            #expect(try await index.search("connectio", limit: 10, offset: 0).hits.map(\.uid) == [old.uid])
            try await index.apply([PostChange(sequence: 3, uid: new.uid, kind: .delete)], position: IndexPosition(applied: 3, database: nil))
            #expect(try await index.search("runni", limit: 10, offset: 0).hits.isEmpty)
        }
    }
}
