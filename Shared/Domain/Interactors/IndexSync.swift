import Synchronization

/// Keeps a search index in step with a change feed: pulls the changes after
/// what it applied until caught up. Used by every search worker (in the
/// background, woken by change notices and a timer) and by a local search
/// (before each query). Notices may be lost, repeated or reordered; the
/// pull is what counts, so nothing is lost.
///
/// A feed from another database (a reset one), or whose head is below what
/// was applied (a database restored from a backup), means the sequence
/// followed so far is gone: the index is emptied and rebuilt from 0.
///
/// A page from a database the index has already left for another is not
/// a reset: two databases answer for one posts service (two posts-services
/// on different files behind one gateway), and following each in turn
/// would rebuild the index on every pull. The index stays on the database
/// it follows, and the catch-up fails naming both.
///
/// A catch-up of at least `SearchRules.compactAfter` changes ends by
/// compacting the index (`SearchIndex.compact`).
public final class IndexSync: Sendable {
    public let index: any SearchIndex
    private let feed: any ChangeFeed
    private let pageSize: Int
    private let onReset: @Sendable (_ applied: Int64, _ head: Int64) -> Void
    private let wake = WakeSignal()
    /// One catch-up at a time: two would fetch and apply the same pages.
    private let running = AsyncLock()
    /// The newest sequence heard of, from notices or pulls.
    public let headSeen = Atomic<Int64>(0)
    /// Set once the first catch-up is done: until then the index is partial.
    public let caughtUpOnce = Atomic<Bool>(false)
    /// Pages of changes pulled from the feed so far (for a log that says
    /// how far a slow first catch-up got).
    public let pagesPulled = Atomic<Int>(0)
    /// The databases this index has left for another.
    private let left = Mutex<Set<String>>([])

    public init(
        index: any SearchIndex, feed: any ChangeFeed, pageSize: Int = PostRules.pageSize.upperBound,
        onReset: @escaping @Sendable (Int64, Int64) -> Void = { _, _ in }
    ) {
        (self.index, self.feed, self.pageSize, self.onReset) = (index, feed, pageSize, onReset)
    }

    /// A change notice: pull now if it is news.
    public func heard(head: Int64) {
        headSeen.max(head, ordering: .relaxed)
        wake.notify()
    }

    /// Catches up, then has the index keep what it built for the next
    /// process (`SearchIndex.keepForNextProcess`): after an import into a
    /// file that later commands search.
    public func prepare() async throws(PostsError) {
        _ = try await catchUp()
        try await index.keepForNextProcess()
    }

    /// Applies every change there is; returns the sequence applied. Pages
    /// are applied a batch at a time (`CatchUpBatch`), and the next batch is
    /// fetched while one is written: the feed's work and the index's overlap.
    @discardableResult
    public func catchUp() async throws(PostsError) -> Int64 {
        try await running.run { () async throws(PostsError) -> Int64 in
            var position = try await index.position()
            var changesApplied = 0
            var batch = try await self.batch(after: position)
            while true {
                let start = batch.end
                let ahead = batch.more ? Task { await self.result { () async throws(PostsError) in try await self.batch(after: start) } } : nil
                defer { ahead?.cancel() }
                // The changes read since `held`, the position the index holds.
                var pending: [PostChange] = []
                var held = position
                var reset = false
                for page in batch.pages {
                    if let followed = position.database, let other = page.database, other != followed,
                        left.withLock({ $0.contains(other) })
                    {
                        throw .failed(Self.twoDatabases(followed: followed, other: other))
                    }
                    headSeen.max(page.head, ordering: .relaxed)
                    if Self.isReset(position, page) {
                        if let database = position.database, database != page.database { left.withLock { _ = $0.insert(database) } }
                        onReset(position.applied, page.head)
                        headSeen.store(page.head, ordering: .relaxed)
                        try await index.reset(database: page.database)
                        position = IndexPosition(applied: 0, database: page.database)
                        (pending, held, reset) = ([], position, true)
                        break
                    }
                    pending += page.changes
                    position = CatchUpBatch.position(after: page, from: position)
                }
                if reset {
                    batch = try await self.batch(after: position)
                    continue
                }
                if position != held { try await index.apply(pending, position: position) }
                changesApplied += pending.count
                guard let ahead else {
                    try await index.settle()
                    if changesApplied >= SearchRules.compactAfter { try await index.compact() }
                    caughtUpOnce.store(true, ordering: .releasing)
                    return position.applied
                }
                batch = try await ahead.value.get()
            }
        }
    }

    /// The pages after `start`, up to the batch's bounds, the feed's head,
    /// or a page that starts over (`isReset`), which the caller handles.
    private func batch(after start: IndexPosition) async throws(PostsError) -> CatchUpBatch {
        var batch = CatchUpBatch(after: start)
        var (changes, bytes) = (0, 0)
        while true {
            let page = try await feed.changes(after: batch.end.applied, limit: pageSize)
            pagesPulled.add(1, ordering: .relaxed)
            batch.pages.append(page)
            if Self.isReset(batch.end, page) { return batch }
            batch.end = CatchUpBatch.position(after: page, from: batch.end)
            if CatchUpBatch.isCaughtUp(page, at: batch.end) { return batch }
            (changes, bytes) = (changes + page.changes.count, bytes + CatchUpBatch.bytes(of: page))
            if changes >= SearchRules.catchUpBatch || bytes >= SearchRules.catchUpBatchBytes {
                batch.more = true
                return batch
            }
        }
    }

    private func result<T>(_ body: () async throws(PostsError) -> T) async -> Result<T, PostsError> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }

    static func twoDatabases(followed: String, other: String) -> String {
        "two posts databases answer for the posts service: \(followed), which the index follows, and \(other), which it left; "
            + "the index stays on \(followed). Every posts-service behind one gateway must use the same database: stop the one on \(other)"
    }

    static func isReset(_ position: IndexPosition, _ page: PostChanges) -> Bool {
        let otherDatabase = page.database != nil && position.database != nil && page.database != position.database
        return otherDatabase || page.head < position.applied
    }

    /// Catches up, then waits for a notice or `interval`, until cancelled.
    public func run(interval: Duration, onError: @Sendable (PostsError) -> Void) async {
        while !Task.isCancelled {
            do { try await catchUp() } catch { onError(error) }
            await wake.wait(upTo: interval)
        }
    }
}
