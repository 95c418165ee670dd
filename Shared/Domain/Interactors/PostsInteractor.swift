#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The posts use cases over any `PostStore`: every rule is checked here,
/// once per process that receives the request (the client for the person's
/// sake, the service because it trusts no input), and never by the store.
public struct PostsInteractor: PostsUseCase {
    let store: any PostStore
    /// Posts saved at once during an import, per batch in flight.
    let batchesInFlight: Int

    public init(store: any PostStore, batchesInFlight: Int = 3) {
        (self.store, self.batchesInFlight) = (store, batchesInFlight)
    }

    public func posts(limit: Int, cursor: String?) async throws(PostsError) -> PostsPage {
        try await store.page(limit: try PostRules.validatedLimit(limit), after: cursor)
    }

    public func post(uid: UUID) async throws(PostsError) -> Post {
        guard let post = try await store.post(uid: uid) else { throw .notFound(uid: uid) }
        return post
    }

    public func save(_ post: Post, key: RequestKey?) async throws(PostsError) -> Post {
        try await store.save(try PostRules.validated(post), ifUnchangedSince: nil, key: key)
    }

    public func save(_ post: Post, ifUnchangedSince readUpdateDate: Date, key: RequestKey?) async throws(PostsError) -> Post {
        try await store.save(try PostRules.validated(post), ifUnchangedSince: readUpdateDate, key: key)
    }

    public func edit(_ read: Post, title: String?, content: String?, key: RequestKey?) async throws(PostsError) -> Post {
        var edited = read
        edited.title = title ?? read.title
        edited.content = content ?? read.content
        return try await save(edited, ifUnchangedSince: read.updateDate, key: key)
    }

    public func save(batch posts: [Post], key: RequestKey?) async throws(PostsError) -> Int {
        guard posts.count <= PostRules.maxBatch else {
            throw .invalid("posts", .tooLong(max: PostRules.maxBatch, actual: posts.count, unit: .entries))
        }
        var valid: [Post] = []
        valid.reserveCapacity(posts.count)
        for (index, post) in posts.enumerated() { valid.append(try PostRules.validated(post, field: "posts[\(index)]")) }
        let distinct = ImportRules.lastOfEachUID(valid)
        return distinct.isEmpty ? 0 : try await store.save(batch: distinct, key: key)
    }

    public func importPosts(_ entries: [ImportEntry], progress: @escaping @Sendable (Int, Int) -> Void) async throws(PostsError) -> Int {
        var posts: [Post] = []
        posts.reserveCapacity(entries.count)
        for entry in entries { posts.append(try ImportRules.post(from: entry)) }
        let batches = ImportRules.batches(of: ImportRules.lastOfEachUID(posts))
        let total = batches.reduce(0) { $0 + $1.count }
        // A few batches in flight, so one is prepared while another is
        // written. Safe: no uid is in two batches. Each batch is a write of
        // its own: no key (a connection keys its own retries of it).
        var pending = batches[...]
        var saved = 0
        let store = self.store
        do {
            try await withThrowingTaskGroup(of: Int.self) { group in
                func sendNext() {
                    guard let batch = pending.popFirst() else { return }
                    group.addTask { try await store.save(batch: batch, key: nil) }
                }
                for _ in 0..<max(1, batchesInFlight) { sendNext() }
                while let count = try await group.next() {
                    saved += count
                    progress(saved, total)
                    sendNext()
                }
            }
        } catch let error as PostsError {
            throw error
        } catch {
            throw .failed("\(error)")
        }
        return saved
    }

    public func delete(uid: UUID, key: RequestKey?) async throws(PostsError) -> Bool {
        try await store.delete(uid: uid, ifUnchangedSince: nil, key: key)
    }

    public func delete(uid: UUID, ifUnchangedSince readUpdateDate: Date, key: RequestKey?) async throws(PostsError) {
        guard try await store.delete(uid: uid, ifUnchangedSince: readUpdateDate, key: key) else { throw .conflict(uid: uid) }
    }

    public func count() async throws(PostsError) -> Int { try await store.count() }
}
