import CoreMetrics
import Metrics
import Domain

/// Domain's `ChangeFeed` port timed as `TimedPostStore` times the store.
struct TimedChangeFeed: ChangeFeed {
    let feed: any ChangeFeed
    private let timers = StoreTimers()

    init(_ feed: any ChangeFeed) { self.feed = feed }

    func changes(after sequence: Int64, limit: Int) async throws(PostsError) -> PostChanges {
        try await timers.changes.measure { () async throws(PostsError) in try await feed.changes(after: sequence, limit: limit) }
    }

    func head() async throws(PostsError) -> Int64 {
        try await timers.head.measure { () async throws(PostsError) in try await feed.head() }
    }
}
