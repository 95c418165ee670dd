import Domain
import Foundation
import LocalPlatform
import Synchronization
import TestSupport
import TestTraits
import Testing

/// The real FTS5 index, counting the compactions asked of it.
private final class CountingIndex: SearchIndex {
    let index: SQLiteSearchIndex
    let compactions = Atomic<Int>(0)

    init(_ index: SQLiteSearchIndex) { self.index = index }

    func position() async throws(PostsError) -> IndexPosition { try await index.position() }
    func apply(_ changes: [PostChange], position: IndexPosition) async throws(PostsError) {
        try await index.apply(changes, position: position)
    }
    func reset(database: String?) async throws(PostsError) { try await index.reset(database: database) }
    func documentCount() async throws(PostsError) -> Int { try await index.documentCount() }
    func compact() async throws(PostsError) {
        compactions.add(1, ordering: .relaxed)
        try await index.compact()
    }
}

@Suite("Search index compaction", .ownThread, .timeLimit(.minutes(5)))
struct IndexCompactionTests {
    private let words = ["kernel", "module", "socket", "signal", "memory", "network", "process", "thread", "file", "zone"]

    /// Posts with a few words each, so queries rank many matches.
    private func changes(_ range: ClosedRange<Int>) -> [PostChange] {
        range.map { n in
            let content = (0..<6).map { words[(n * 7 + $0 * 3) % words.count] }.joined(separator: " ")
            let post = Post(title: "post \(n) \(words[n % words.count])", content: content)
            return PostChange(sequence: Int64(n), uid: post.uid, kind: .upsert(post))
        }
    }

    private func results(_ index: SQLiteSearchIndex) async throws -> [[String]] {
        var all: [[String]] = []
        for query in ["kernel", "socket signal", "mem", "\"kernel signal\"", "post 12"] {
            all.append(try await index.search(query, limit: 20, offset: 0).hits.map(\.title))
        }
        return all
    }

    @Test func test_compactingChangesNoResult() async throws {
        let index = try SQLiteSearchIndex()
        // Pages of 7: many small transactions, so many segments to merge.
        let feed = MemoryFeed(changes: changes(1...700), head: 700)
        try await IndexSync(index: index, feed: feed, pageSize: 7).catchUp()
        let before = try await results(index)
        #expect(before.allSatisfy { !$0.isEmpty })
        try await index.compact()
        #expect(try await results(index) == before)
        #expect(try await index.documentCount() == 700)
    }

    @Test func test_aLargeCatchUpEndsWithOneCompaction_aSmallOneWithNone() async throws {
        let counting = CountingIndex(try SQLiteSearchIndex())
        let count = SearchRules.compactAfter
        try await IndexSync(index: counting, feed: MemoryFeed(changes: changes(1...count), head: Int64(count))).catchUp()
        #expect(counting.compactions.load(ordering: .relaxed) == 1)
        let more = MemoryFeed(changes: changes(1...(count + 5)), head: Int64(count + 5))
        try await IndexSync(index: counting, feed: more).catchUp()
        #expect(counting.compactions.load(ordering: .relaxed) == 1, "5 changes are not worth a compaction")
        #expect(try await counting.documentCount() == count + 5)
    }
}
