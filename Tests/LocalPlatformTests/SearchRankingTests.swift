import Domain
import Foundation
import GRDB
@testable import LocalPlatform
@testable import Search
import TestSupport
import TestTraits
import Testing

/// The index ranks by its own postings (`ImpactRanker`); these tests hold
/// it to FTS5's own bm25 over the same documents (`FTS5Reference`): the
/// same hits on every page, in the same order, with the same scores, and
/// the exact number of matches.
@Suite("Search ranking agrees with FTS5's bm25", .ownThread, .timeLimit(.minutes(5)))
struct SearchRankingTests {
    private static let vocabulary = [
        "kernel", "module", "socket", "signal", "memory", "network", "process", "thread",
        "file", "files", "filesystem", "zone", "format", "output", "error", "command", "line",
    ]
    /// Queries whose unfinished last word has one stem to complete to: the
    /// ranking postings score it as FTS5 scores the prefix, so the page is
    /// FTS5's to the bit (a prefix of several stems may differ: ImpactQuery).
    private static let oneCompletion = ["kernel module", "network", "signal memory thread", "zone", "out", "kernel"]
    /// Queries of one phrase (`ImpactPhrase`), and of phrases beside other
    /// terms (`ImpactPhrases`).
    private static let phrases = [
        "\"command line\"", "\"lorem kernel\"", "\"lorem lorem lorem\"", "\"file\" zone", "\"command line\" kernel",
        "network \"lorem signal\" zone", "\"lorem lorem\" \"file format\"", "\"lorem\" \"lorem lorem\"",
    ]
    private static let queries = oneCompletion + phrases

    /// Posts of very different lengths (up to 20,000 words, so FTS5 stores
    /// some lengths in two and three bytes), the same few words throughout;
    /// the longest mostly a filler word, as a snippet of a word found
    /// thousands of times in one post takes long to choose.
    static func corpus(count: Int) -> [Post] {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        func words(_ count: Int, filler: Int = 0) -> String {
            (0..<count).map { _ in next(filler + 1) == 0 ? vocabulary[next(vocabulary.count)] : "lorem" }.joined(separator: " ")
        }
        return (0..<count).map { index in
            let content = index % 97 == 0 ? words(20_000, filler: 400) : index % 13 == 0 ? words(300, filler: 3) : words(1 + next(60))
            return Post(title: words(1 + next(4)), content: content)
        }
    }

    /// Each post saved, in turn, from sequence `sequence` (these tests' and `SavedRankingTests`').
    static func changes(_ posts: [Post], from sequence: Int64 = 1) -> [PostChange] {
        posts.enumerated().map { PostChange(sequence: sequence + Int64($0.offset), uid: $0.element.uid, kind: .upsert($0.element)) }
    }

    /// An index in a file at `path` (its directory made) holding `posts`,
    /// as a search worker's (`exclusive`: its ranking loads beside writes)
    /// or as `posts --local`'s (built again at a search after another
    /// process wrote).
    private func indexed(_ posts: [Post], at path: String, exclusive: Bool = true) async throws -> SQLiteSearchIndex {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let index = try SQLiteSearchIndex(path: path, exclusive: exclusive)
        try await index.apply(Self.changes(posts), position: IndexPosition(applied: Int64(posts.count), database: nil))
        return index
    }

    private func expectAgreement(
        _ index: SQLiteSearchIndex, _ path: String, _ label: String, queries: [String] = Self.queries
    ) async throws {
        let reference = try FTS5Reference(indexAt: path)
        for query in queries {
            for (limit, offset) in [(10, 0), (10, 10), (7, 45), (500, 0)] {
                let results = try await index.search(query, limit: limit, offset: offset)
                let (uids, scores, total) = try reference.page(query, limit: limit, offset: offset)
                #expect(results.hits.map(\.uid.uuidString) == uids, "\(label): \(query) at \(offset)")
                #expect(results.hits.map(\.score) == scores, "\(label): \(query) at \(offset)")
                #expect(results.total == total && results.totalIsExact, "\(label): \(query)")
                #expect(results.hits.allSatisfy { !$0.highlights.isEmpty }, "\(label): every hit has its snippet")
            }
        }
    }

    @Test func test_everyPageHasFTS5sHits_inItsOrder_withItsScores_andTheExactTotal() async throws {
        try await withDatabase { path in
            let index = try await indexed(Self.corpus(count: 400), at: path, exclusive: false)
            try await expectAgreement(index, path, "built")
        }
    }

    /// Every third post edited (the longest made short, `short`, and the
    /// short long, ending in `long`), then every fifth deleted: the changes
    /// after the posts' own, in order.
    private func editsAndDeletes(_ posts: inout [Post], short: String, long: String) -> [PostChange] {
        for position in posts.indices where position % 3 == 0 {
            posts[position].content = position % 97 == 0 ? short : String(repeating: "lorem ", count: 400) + long
        }
        var sequence = Int64(posts.count) + 1
        var edits = Self.changes(posts.enumerated().filter { $0.offset % 3 == 0 }.map(\.element), from: sequence)
        sequence += Int64(edits.count)
        for position in posts.indices where position % 5 == 1 {
            edits.append(PostChange(sequence: sequence, uid: posts[position].uid, kind: .delete))
            sequence += 1
        }
        return edits
    }

    @Test func test_afterEditsThatChangeLengths_andDeletes_andOnReopening_theRankingStillAgrees() async throws {
        try await withDatabase { path in
            var posts = Self.corpus(count: 300)
            let index = try await indexed(posts, at: path)
            _ = try await index.search("file", limit: 10, offset: 0)
            // The longest become short and the short long; every fifth goes.
            let edits = editsAndDeletes(&posts, short: "file", long: "file zone")
            try await index.apply(edits, position: IndexPosition(applied: edits.last!.sequence, database: nil))
            try await expectAgreement(index, path, "edited")
            // Reopened, it loads its ranking at its first search.
            let reopened = try SQLiteSearchIndex(path: path, exclusive: true)
            #expect(!reopened.rankingLoaded)
            try await expectAgreement(reopened, path, "reopened")
            #expect(reopened.rankingLoaded)
        }
    }

    @Test func test_withTheRankingLoadedWhileEditsAndDeletesGoOn_everyPageIsStillFTS5s() async throws {
        try await withDatabase { path in
            var posts = Self.corpus(count: 300)
            _ = try await indexed(posts, at: path)
            // Opened again, as a worker restarting without saved postings.
            let index = try SQLiteSearchIndex(path: path, exclusive: true)
            #expect(!index.rankingLoaded)
            let edits = editsAndDeletes(&posts, short: "kernel", long: "network zone")
            // Loaded a few documents at a time while the edits are applied page by page.
            let pages = stride(from: 0, to: edits.count, by: 9).map { Array(edits[$0..<min($0 + 9, edits.count)]) }
            async let loaded = index.loadRanking(pageSize: 7)
            for page in pages { try await index.apply(page, position: IndexPosition(applied: page.last!.sequence, database: nil)) }
            #expect(try await loaded > 0)
            #expect(index.rankingLoaded)
            try await expectAgreement(index, path, "loaded while edited")
            let reopened = try SQLiteSearchIndex(path: path, exclusive: true)
            try await reopened.loadRanking()
            try await expectAgreement(reopened, path, "reopened and loaded")
        }
    }

    @Test func test_withTheRankingLoaded_anUnfinishedWordOfManyCompletions_findsPostsWithOne_highlighted() async throws {
        let index = try SQLiteSearchIndex()
        let posts = Self.corpus(count: 300)
        try await index.apply(Self.changes(posts), position: IndexPosition(applied: Int64(posts.count), database: nil))
        try await index.loadRanking()
        let results = try await index.search("kernel fil", limit: 20, offset: 0)
        #expect(!results.hits.isEmpty)
        for hit in results.hits {
            let post = try #require(posts.first { $0.uid == hit.uid })
            let words = (post.title + " " + post.content).split(separator: " ")
            #expect(words.contains("kernel") && words.contains { $0.hasPrefix("fil") })
            #expect(!hit.highlights.isEmpty)
        }
        #expect(
            results.totalIsExact
                && results.total
                    == posts.filter { post in
                        let words = (post.title + " " + post.content).split(separator: " ")
                        return words.contains("kernel") && words.contains { $0.hasPrefix("fil") }
                    }.count
        )
    }
}
