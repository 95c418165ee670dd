import Domain
import Synchronization

/// A change feed in memory that answers like the SQLite one: the changes
/// after a sequence, in order, at most `limit`, with the head and database.
final class MemoryFeed: ChangeFeed {
    private let state: Mutex<PostChanges>

    init(changes: [PostChange], head: Int64, database: String? = nil) {
        state = Mutex(PostChanges(changes: changes.sorted { $0.sequence < $1.sequence }, head: head, database: database))
    }

    func changes(after sequence: Int64, limit: Int) async throws(PostsError) -> PostChanges {
        state.withLock { all in
            PostChanges(changes: Array(all.changes.filter { $0.sequence > sequence }.prefix(limit)), head: all.head, database: all.database)
        }
    }

    func head() async throws(PostsError) -> Int64 { state.withLock { $0.head } }
}

/// Several feeds, one answering at a time: posts-services on different
/// databases behind one gateway, where each pull may reach any of them.
final class TurnFeed: ChangeFeed {
    private let feeds: [MemoryFeed]
    private let current = Mutex(0)

    init(_ feeds: [MemoryFeed]) { self.feeds = feeds }

    func turn(to index: Int) { current.withLock { $0 = index } }

    private var answering: MemoryFeed { feeds[current.withLock { $0 }] }

    func changes(after sequence: Int64, limit: Int) async throws(PostsError) -> PostChanges {
        try await answering.changes(after: sequence, limit: limit)
    }

    func head() async throws(PostsError) -> Int64 { try await answering.head() }
}
