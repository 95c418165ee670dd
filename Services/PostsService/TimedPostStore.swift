import CoreMetrics
import Metrics
import Domain
import Foundation

/// Domain's `PostStore` port with the time each call takes, as
/// `posts_store_duration_seconds{operation}`: the store a posts-service
/// runs on (SQLite or PostgreSQL), measured at the port.
struct TimedPostStore: PostStore {
    let store: any PostStore
    private let timers = StoreTimers()

    init(_ store: any PostStore) { self.store = store }

    func page(limit: Int, after cursor: String?) async throws(PostsError) -> PostsPage {
        try await timers.page.measure { () async throws(PostsError) in try await store.page(limit: limit, after: cursor) }
    }

    func post(uid: UUID) async throws(PostsError) -> Post? {
        try await timers.post.measure { () async throws(PostsError) in try await store.post(uid: uid) }
    }

    func save(_ post: Post, ifUnchangedSince: Date?) async throws(PostsError) -> Post {
        try await timers.save.measure { () async throws(PostsError) in try await store.save(post, ifUnchangedSince: ifUnchangedSince) }
    }

    func save(batch posts: [Post]) async throws(PostsError) -> Int {
        try await timers.saveBatch.measure { () async throws(PostsError) in try await store.save(batch: posts) }
    }

    func delete(uid: UUID) async throws(PostsError) -> Bool {
        try await timers.delete.measure { () async throws(PostsError) in try await store.delete(uid: uid) }
    }
}
