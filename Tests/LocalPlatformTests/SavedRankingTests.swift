import Domain
import Foundation
@testable import LocalPlatform
@testable import Search
import TestSupport
import TestTraits
import Testing

/// The ranking postings a search worker saves beside its index when it
/// stops: taken up at the next start instead of reading every document
/// back, what changed since made good, and never when the file is damaged
/// or is not the one the index names.
@Suite("Ranking postings saved beside the index", .ownThread, .timeLimit(.minutes(5)))
struct SavedRankingTests {
    /// Words, unfinished words of one and of several completions, a letter.
    static let queries = [
        "file", "fil", "kernel module", "network", "zone fi", "out", "signal memory thread", "f", "lorem", "\"network zone\"",
        "\"network zone\" file", "\"file dolor\"",
    ]

    func opened(_ path: String) throws -> SQLiteSearchIndex {
        try SQLiteSearchIndex(path: path, exclusive: true, postingsPath: path + ".postings")
    }

    func apply(_ changes: [PostChange], to index: SQLiteSearchIndex) async throws {
        try await index.apply(changes, position: IndexPosition(applied: changes.last!.sequence, database: nil))
    }

    /// 300 posts, then every fourth edited and every seventh deleted, so
    /// that the postings hold removed documents too; and the posts left.
    func built(at path: String) async throws -> (SQLiteSearchIndex, live: [Post]) {
        var posts = SearchRankingTests.corpus(count: 300)
        let index = try opened(path)
        try await apply(SearchRankingTests.changes(posts, from: 1), to: index)
        try await index.loadRanking()
        for position in posts.indices where position % 4 == 0 { posts[position].content += " network zone" }
        var edits = SearchRankingTests.changes(posts.enumerated().filter { $0.offset % 4 == 0 }.map(\.element), from: 301)
        for position in posts.indices where position % 7 == 3 {
            edits.append(PostChange(sequence: 301 + Int64(edits.count), uid: posts[position].uid, kind: .delete))
        }
        try await apply(edits, to: index)
        return (index, posts.indices.filter { $0 % 7 != 3 }.map { posts[$0] })
    }

    /// Edits `edited` of `posts` and deletes `deleted`, from sequence `from`.
    func editAndDelete(_ posts: [Post], edited: Range<Int>, deleted: Range<Int>, from: Int64, _ index: SQLiteSearchIndex) async throws {
        let edits = posts[edited].map { Post(uid: $0.uid, title: $0.title + " kernel", content: "edited file") }
        var changes = SearchRankingTests.changes(edits, from: from)
        for post in posts[deleted] { changes.append(PostChange(sequence: from + Int64(changes.count), uid: post.uid, kind: .delete)) }
        try await apply(changes, to: index)
    }

    /// The same index with its postings loaded from every document, as a
    /// worker with nothing saved loads them.
    func loadedFromDocuments(_ path: String) async throws -> SQLiteSearchIndex {
        let index = try SQLiteSearchIndex(path: path, exclusive: true)
        try await index.loadRanking()
        return index
    }

    /// Every page a user would see for `queries`: hits, scores, snippets,
    /// highlights and totals.
    func pages(_ index: SQLiteSearchIndex) async throws -> [String] {
        var pages: [String] = []
        for query in Self.queries {
            for (limit, offset) in [(10, 0), (10, 10), (200, 0)] {
                let results = try await index.search(query, limit: limit, offset: offset)
                let hits = results.hits.map { "\($0.uid) \($0.score) \($0.snippet) \($0.highlights)" }
                pages.append("\(query) \(offset): \(results.total) \(results.totalIsExact) \(hits)")
            }
        }
        return pages
    }

    /// A new start on `path`, whose saved postings (`what`) are damaged:
    /// refused as such, and every one of the `live` documents read instead,
    /// with the `expected` pages; nil (an issue recorded) when it was taken up.
    func refusedAndReadInstead(_ path: String, _ what: String, live: Int, expected: [String]) async throws -> SQLiteSearchIndex? {
        let reopened = try opened(path)
        guard case .unusable(let reason) = try await reopened.restoreRanking() else {
            Issue.record("\(what) was taken up")
            return nil
        }
        #expect(reason.contains("damaged"), "\(reason)")
        #expect(try await reopened.loadRanking() == live, "every document read instead")
        #expect(try await pages(reopened) == expected)
        return reopened
    }

    @Test func test_savedAtAStop_theNextStartRanksAtOnce_readingNoDocument_withTheSamePages() async throws {
        try await withDatabase { path in
            let (index, live) = try await built(at: path)
            let before = try await pages(index)
            let bytes = try #require(try await index.saveRanking())
            let attributes = try FileManager.default.attributesOfItem(atPath: path + ".postings")
            #expect(attributes[.size] as? Int == bytes && attributes[.posixPermissions] as? Int == 0o600, "owner-only: \(attributes)")
            #expect(try await index.saveRanking() == nil, "nothing changed since: nothing to save again")

            let reopened = try opened(path)
            #expect(try await reopened.restoreRanking() == .restored(removed: 0))
            #expect(reopened.rankingLoaded, "ranked at once")
            #expect(try await reopened.loadRanking() == 0, "no document read back")
            #expect(try await pages(reopened) == before)
            #expect(try await reopened.saveRanking() == nil, "taken up as saved: nothing to save")

            // Changes after the save (a worker killed before its next): taken out of the postings, or read, as they are taken up.
            let more = SearchRankingTests.corpus(count: 40).map { Post(title: $0.title, content: $0.content + " file") }
            try await apply(SearchRankingTests.changes(more, from: 1_000), to: reopened)
            try await editAndDelete(live, edited: 0..<10, deleted: 10..<25, from: 2_000, reopened)
            let fresh = try opened(path)
            #expect(try await fresh.restoreRanking() == .restored(removed: 25), "the edited and the deleted")
            #expect(!fresh.rankingLoaded, "posts past the saved ones: not ranked until they are read")
            #expect(try await pages(reopened) == pages(loadedFromDocuments(path)))
            // A change applied before the loading reads them (a worker catching up meanwhile) is left to the loading.
            try await apply(SearchRankingTests.changes([Post(title: "later", content: "file kernel")], from: 3_000), to: fresh)
            #expect(try await fresh.loadRanking() == 40 + 10 + 1, "the new posts, the edited ones' new rows, the later one")
            #expect(fresh.rankingLoaded)
            #expect(try await pages(fresh) == pages(loadedFromDocuments(path)))
        }
    }

    @Test func test_aCutOrForeignFile_isNotTakenUp_namingWhy_andTheDocumentsAreReadInstead() async throws {
        try await withDatabase { path in
            let (index, live) = try await built(at: path)
            let expected = try await pages(index)
            let saved = try #require(try await index.saveRanking())
            let file = path + ".postings"
            let whole = try Data(contentsOf: URL(fileURLWithPath: file))
            let id = try #require(try await index.savedPostingsID())
            #expect(whole.count == saved, "the size a save reports is the file's")
            let frame = StoredPostings.magic.count + 1 + 16
            #expect(Array(whole[frame..<(frame + 4)]) == [0x28, 0xB5, 0x2F, 0xFD], "compressed: a zstd frame after the plain start")

            // Cut anywhere, it is refused: never read past its end, never taken for whole.
            for cut in stride(from: 0, to: whole.count, by: max(1, whole.count / 40)) + [whole.count - 1] {
                try whole.prefix(cut).write(to: URL(fileURLWithPath: file))
                #expect(throws: StoredPostingsError.self, "cut at \(cut) of \(whole.count)") { _ = try StoredPostings.read(from: file, id: id) }
            }
            // A byte changed anywhere is read without a crash (refused when a count, a length or a rowid goes out of bounds).
            var seed: UInt64 = 42
            for _ in 0..<300 {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                var changed = whole
                changed[Int((seed >> 33) % UInt64(whole.count))] ^= UInt8(truncatingIfNeeded: seed >> 13) | 1
                try changed.write(to: URL(fileURLWithPath: file))
                _ = try? StoredPostings.read(from: file, id: id)
            }
            #expect(throws: StoredPostingsError.self, "another file's id") {
                try whole.write(to: URL(fileURLWithPath: file))
                _ = try StoredPostings.read(from: file, id: UUID())
            }

            try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: file))
            guard let reopened = try await refusedAndReadInstead(path, "a cut file", live: live.count, expected: expected) else { return }
            #expect(try await opened(path).restoreRanking() == .nothingSaved, "the index no longer names the file")
            #expect(try await reopened.saveRanking() != nil, "and saves a new one")
            #expect(try await opened(path).restoreRanking() == .restored(removed: 0))
        }
    }

    @Test func test_aSaveThatWritesCameDuring_isTakenUpWithThemMadeGood() async throws {
        try await withDatabase { path in
            let (index, live) = try await built(at: path)
            let late = Post(title: "Late kernel", content: "written while the postings were being saved")
            // The writes come after the save took its copy of the postings, before it names the file.
            let saved = try await index.saveRanking(whileWriting: {
                try await apply(SearchRankingTests.changes([late], from: 5_000), to: index)
                try await editAndDelete(live, edited: 0..<3, deleted: 3..<5, from: 5_001, index)
            })
            #expect(saved != nil)
            let expected = try await pages(index)
            let reopened = try opened(path)
            #expect(try await reopened.restoreRanking() == .restored(removed: 5))
            #expect(try await reopened.loadRanking() == 1 + 3)
            #expect(try await pages(reopened) == expected)
            #expect(try await pages(loadedFromDocuments(path)) == expected)
            #expect(try await reopened.search("late", limit: 10, offset: 0).hits.map(\.title) == ["Late kernel"])
        }
    }
}
