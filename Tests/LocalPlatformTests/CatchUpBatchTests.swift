import Domain
import Foundation
import LocalPlatform
import Synchronization
import TestSupport
import TestTraits
import Testing

/// The real FTS5 index, recording each write a catch-up makes: how many
/// changes and how much text, and whether the feed was asked for the next
/// batch before the write was done.
private final class RecordingIndex: SearchIndex {
    let index: SQLiteSearchIndex
    let feed: CountingFeed
    let writes = Mutex<[(changes: Int, bytes: Int, overlapped: Bool)]>([])
    /// At each `settle`, the writes made so far.
    let settles = Mutex<[Int]>([])

    /// In memory, or a worker's file at `path` (its searches on connections
    /// of their own, a catch-up's pages ranked aside).
    init(feed: CountingFeed, path: String? = nil) throws {
        (index, self.feed) = (try SQLiteSearchIndex(path: path, exclusive: path != nil), feed)
    }

    func position() async throws(PostsError) -> IndexPosition { try await index.position() }
    func apply(_ changes: [PostChange], position: IndexPosition) async throws(PostsError) {
        try await index.apply(changes, position: position)
        // Written while the next batch is fetched: its first page (after
        // this write's last sequence) is asked for before this returns.
        // The fetch is a task of its own that may already have run before
        // this write began, or that a loaded machine may start seconds late
        // (5 s once was not enough with one core kept busy beside a full
        // run): wait for it, a bounded time.
        let deadline = ContinuousClock.now + .seconds(30)
        while !feed.wasAsked(after: position.applied), position.applied < feed.head, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(1))
        }
        let bytes = changes.reduce(0) { total, change in
            guard case .upsert(let post) = change.kind else { return total }
            return total + PostRules.textBytes(title: post.title, content: post.content)
        }
        let overlapped = feed.wasAsked(after: position.applied)
        writes.withLock { $0.append((changes.count, bytes, overlapped)) }
    }
    func reset(database: String?) async throws(PostsError) { try await index.reset(database: database) }
    func documentCount() async throws(PostsError) -> Int { try await index.documentCount() }
    func compact() async throws(PostsError) { try await index.compact() }
    func keepForNextProcess() async throws(PostsError) { try await index.keepForNextProcess() }
    func settle() async throws(PostsError) {
        try await index.settle()
        settles.withLock { $0.append(writes.withLock(\.count)) }
    }
}

/// A feed in memory counting what it is asked; from call `switchAt` on, it
/// answers for another database (the posts file was replaced mid-catch-up).
private final class CountingFeed: ChangeFeed {
    let calls = Atomic<Int>(0)
    /// The sequences it was asked for changes after.
    private let asked = Mutex<Set<Int64>>([])
    private let first: MemoryFeed
    private let second: MemoryFeed?
    private let switchAt: Int
    let head: Int64

    init(_ first: MemoryFeed, head: Int64, then second: MemoryFeed? = nil, at switchAt: Int = .max) {
        (self.first, self.second, self.switchAt, self.head) = (first, second, switchAt, head)
    }

    func changes(after sequence: Int64, limit: Int) async throws(PostsError) -> PostChanges {
        let call = calls.add(1, ordering: .relaxed).newValue
        asked.withLock { _ = $0.insert(sequence) }
        return try await (call >= switchAt ? second ?? first : first).changes(after: sequence, limit: limit)
    }

    func head() async throws(PostsError) -> Int64 { try await first.head() }

    func wasAsked(after sequence: Int64) -> Bool { asked.withLock { $0.contains(sequence) } }
}

@Suite("Catch-up batches", .ownThread, .timeLimit(.minutes(5)))
struct CatchUpBatchTests {
    private func changes(_ count: Int, contentBytes: Int = 40) -> [PostChange] {
        (1...count).map { n in
            let filler = String(repeating: "word\(n % 97) ", count: max(1, contentBytes / 7))
            let post = Post(title: "post \(n)", content: String(filler.prefix(contentBytes)))
            return PostChange(sequence: Int64(n), uid: post.uid, kind: .upsert(post))
        }
    }

    @Test func test_aLongCatchUp_writesFewTransactionsWithinTheBound_whileFetchingTheNext() async throws {
        let count = 12_345
        let feed = CountingFeed(MemoryFeed(changes: changes(count), head: Int64(count)), head: Int64(count))
        let index = try RecordingIndex(feed: feed)
        #expect(try await IndexSync(index: index, feed: feed, pageSize: 500).catchUp() == Int64(count))
        let writes = index.writes.withLock { $0 }
        #expect(writes.map(\.changes) == [5_000, 5_000, 2_345], "25 pages in three writes of at most \(SearchRules.catchUpBatch)")
        let overlapped = writes.dropLast().allSatisfy { $0.overlapped }
        #expect(overlapped, "the next batch is fetched while one is written")
        #expect(try await index.documentCount() == count)
        #expect(try await index.index.search("post", limit: 1, offset: 0).total == count)
    }

    /// A worker's index ranks a catch-up's page while the next is written;
    /// the catch-up settles once, after its last write, and every post is
    /// then found.
    @Test func test_aLongCatchUpIntoAWorkersIndex_settlesOnceAfterItsLastWrite_andFindsEveryPost() async throws {
        try await withDatabase { path in
            let count = 12_345
            let feed = CountingFeed(MemoryFeed(changes: changes(count), head: Int64(count)), head: Int64(count))
            let index = try RecordingIndex(feed: feed, path: path)
            #expect(try await IndexSync(index: index, feed: feed, pageSize: 500).catchUp() == Int64(count))
            #expect(index.settles.withLock { $0 } == [3], "settled once, after the third and last write")
            #expect(try await index.index.search("post", limit: 1, offset: 0).total == count)
        }
    }

    @Test func test_largePosts_areWrittenInBatchesOfBoundedText() async throws {
        // 40 pages of 10 posts of 30 KB: 12 MB of text in all.
        let count = 400
        let feed = CountingFeed(MemoryFeed(changes: changes(count, contentBytes: 30_000), head: Int64(count)), head: Int64(count))
        let index = try RecordingIndex(feed: feed)
        #expect(try await IndexSync(index: index, feed: feed, pageSize: 10).catchUp() == Int64(count))
        let writes = index.writes.withLock { $0 }
        #expect(writes.count >= 3)
        let bounded = writes.allSatisfy { $0.bytes <= SearchRules.catchUpBatchBytes + 10 * 30_100 }
        #expect(bounded, "at most the bound and one page more")
        #expect(writes.reduce(0) { $0 + $1.changes } == count)
        #expect(try await index.documentCount() == count)
    }

    @Test func test_aFeedThatStartsOverMidBatch_rebuildsTheIndexFromTheNewDatabaseOnly() async throws {
        let old = MemoryFeed(changes: changes(3_000), head: 3_000, database: "A")
        let newPosts = (1...700).map { n in
            let post = Post(title: "new \(n)", content: "from the new file")
            return PostChange(sequence: Int64(n), uid: post.uid, kind: .upsert(post))
        }
        let new = MemoryFeed(changes: newPosts, head: 700, database: "B")
        // Pages of 500: the third fetch, within the first batch, already meets file B.
        let feed = CountingFeed(old, head: 700, then: new, at: 3)
        let resets = Mutex(0)
        let index = try RecordingIndex(feed: feed)
        let sync = IndexSync(index: index, feed: feed, pageSize: 500) { _, _ in resets.withLock { $0 += 1 } }
        #expect(try await sync.catchUp() == 700)
        #expect(resets.withLock { $0 } == 1)
        #expect(try await index.documentCount() == 700, "nothing of file A is kept")
        #expect(try await index.index.search("post", limit: 1, offset: 0).total == 0)
        #expect(try await index.index.search("new", limit: 1, offset: 0).total == 700)
        #expect(try await index.position() == IndexPosition(applied: 700, database: "B"))
    }
}
