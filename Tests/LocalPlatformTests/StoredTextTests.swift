import Domain
import Foundation
import GRDB
@testable import LocalPlatform
import TestSupport
import TestTraits
import Testing

/// A search index file keeps its documents' text compressed once it holds
/// enough of them, and nobody searching can tell: the same hits, titles,
/// snippets and scores as an index that keeps it plain, through edits,
/// deletes, reopening and a reset.
@Suite("Search documents stored compressed", .ownThread, .timeLimit(.minutes(5)))
struct StoredTextTests {
    private static let queries = ["kernel", "socket modu", "\"the file\"", "système", "進程 line", "x"]

    private func changes(_ posts: [Post], from sequence: Int64) -> [PostChange] {
        posts.enumerated().map { PostChange(sequence: sequence + Int64($0.offset), uid: $0.element.uid, kind: .upsert($0.element)) }
    }

    private func apply(_ changes: [PostChange], to indexes: [SQLiteSearchIndex]) async throws {
        for index in indexes { try await index.apply(changes, position: IndexPosition(applied: changes.last!.sequence, database: nil)) }
    }

    /// How many documents the file holds, how many of them compressed, their stored bytes.
    private func stored(_ path: String) throws -> (documents: Int, compressed: Int, bytes: Int) {
        try DatabaseQueue(path: path).read { db in
            let row = try Row.fetchOne(
                db, sql: "SELECT count(*), total(hex(substr(text, 1, 1)) = '01'), total(length(text)) FROM document")!
            return (row[0], Int(row[1] as Double), Int(row[2] as Double))
        }
    }

    private func expectSameHits(_ index: SQLiteSearchIndex, _ reference: SQLiteSearchIndex, _ label: String) async throws {
        for query in Self.queries {
            let found = try await index.search(query, limit: 30, offset: 0)
            let expected = try await reference.search(query, limit: 30, offset: 0)
            #expect(!expected.hits.isEmpty, "\(label): \(query) finds something")
            #expect(found.hits == expected.hits && found.total == expected.total, "\(label): \(query)")
        }
    }

    @Test func test_onceTheIndexHoldsEnoughPosts_itsTextIsCompressed_andSearchesFindTheSame() async throws {
        try await withDatabase { path in
            let posts = DocumentTextTests.texts(count: 790).map { Post(title: $0.title, content: $0.content) }
            let raw = posts.reduce(0) { $0 + $1.title.utf8.count + $1.content.utf8.count }
            let plain = try SQLiteSearchIndex()
            let index = try SQLiteSearchIndex(path: path, trainingAfter: 500)
            try await apply(changes(Array(posts[..<400]), from: 1), to: [plain, index])
            #expect(try stored(path).compressed == 0, "under 500 documents, each stored as it is")
            try await expectSameHits(index, plain, "plain")
            try await apply(changes(Array(posts[400...]), from: 401), to: [plain, index])
            let trained = try stored(path)
            #expect(trained.documents == 800 && trained.compressed > 700, "the first 400 compressed too, once trained")
            #expect(trained.bytes * 2 < raw)
            try await expectSameHits(index, plain, "compressed")

            // Edits and deletes take each old text's words out of the ranking, read from its compressed blob.
            let edited = posts.enumerated().filter { $0.offset % 3 == 0 }.map {
                Post(uid: $0.element.uid, title: "edited kernel", content: $0.element.title)
            }
            var edits = changes(edited, from: Int64(posts.count + 1))
            for (offset, post) in posts.enumerated() where offset % 5 == 1 {
                edits.append(PostChange(sequence: Int64(posts.count + 1 + edits.count), uid: post.uid, kind: .delete))
            }
            try await apply(edits, to: [plain, index])
            try await expectSameHits(index, plain, "edited")
            // The file holds the posts as they are now, as a new index of them would: the same words in FTS5's eyes.
            let now = Dictionary(edits.map { ($0.uid, $0) }, uniquingKeysWith: { $1 })
            let final = posts.compactMap { post -> Post? in
                guard let change = now[post.uid] else { return post }
                if case .upsert(let edited) = change.kind { return edited } else { return nil }
            }
            let fresh = try SQLiteSearchIndex(path: path + ".fresh", trainingAfter: 500)
            try await apply(changes(final, from: 1), to: [fresh])
            #expect(try FTS5Reference(indexAt: path).vocabulary() == FTS5Reference(indexAt: path + ".fresh").vocabulary())
            let reopened = try SQLiteSearchIndex(path: path)
            try await expectSameHits(reopened, plain, "reopened")
        }
    }

    /// Two processes on one file (`posts --local` beside a running
    /// interface): each reads and writes with the dictionary the file holds
    /// now, which the other may have trained or forgotten since.
    @Test func test_twoIndexesOnOneFile_eachFollowsTheDictionaryTheOtherTrainsOrForgets() async throws {
        try await withDatabase { path in
            let posts = DocumentTextTests.texts(count: 300).map { Post(title: $0.title, content: $0.content) }
            let first = try SQLiteSearchIndex(path: path, trainingAfter: 200)
            let second = try SQLiteSearchIndex(path: path, trainingAfter: 200)
            _ = try await second.search("kernel", limit: 10, offset: 0)  // plain, as the file was then
            try await apply(changes(posts, from: 1), to: [first])
            #expect(try stored(path).compressed > 250)
            let uids = { (index: SQLiteSearchIndex, query: String) in Set(try await index.search(query, limit: 500, offset: 0).hits.map(\.uid)) }
            let kernel = try await uids(first, "kernel")
            #expect(try await uids(second, "kernel") == kernel && !kernel.isEmpty)
            let edited = Post(uid: posts[6].uid, title: "edited", content: "zebra")
            try await apply([PostChange(sequence: Int64(posts.count + 1), uid: edited.uid, kind: .upsert(edited))], to: [second])
            #expect(try await uids(first, "zebra") == [edited.uid])
            try await first.reset(database: "another")
            let after = Post(title: "kernel notes", content: "giraffe")
            try await apply(changes([after], from: 1), to: [second])
            let left = try stored(path)
            #expect(left.documents == 1 && left.compressed == 0, "stored plain: the file has no dictionary now")
            // The first, which reset the file, finds what the second wrote since, and so does a third.
            #expect(try await uids(first, "giraffe") == [after.uid])
            #expect(try await uids(try SQLiteSearchIndex(path: path), "giraffe") == [after.uid])
        }
    }

    @Test func test_aReset_forgetsTheDictionary_andTheNextPostsAreStoredPlain() async throws {
        try await withDatabase { path in
            let posts = DocumentTextTests.texts(count: 300).map { Post(title: $0.title, content: $0.content) }
            let index = try SQLiteSearchIndex(path: path, trainingAfter: 200)
            try await apply(changes(posts, from: 1), to: [index])
            #expect(try stored(path).compressed > 250)
            try await index.reset(database: "another")
            let after = Post(title: "kernel notes", content: "the socket line")
            try await apply(changes([after], from: 1), to: [index])
            let left = try stored(path)
            #expect(left.documents == 1 && left.compressed == 0)
            #expect(try await index.search("socket", limit: 10, offset: 0).hits.map(\.uid) == [after.uid])
            let dictionary = try await DatabaseQueue(path: path).read { db in
                try Data.fetchOne(db, sql: "SELECT textDictionary FROM searchState")
            }
            #expect(dictionary == nil)
        }
    }
}
