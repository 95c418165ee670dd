import Application
import Domain
import Foundation
import Synchronization
import Testing

/// A search use case made of a closure; records every query it was asked.
final class SearchDouble: SearchUseCase {
    private let queries = Mutex<[String]>([])
    private let answer: @Sendable (String) async throws(PostsError) -> SearchResults

    init(_ answer: @escaping @Sendable (String) async throws(PostsError) -> SearchResults) { self.answer = answer }

    func search(_ query: String, limit: Int, offset: Int) async throws(PostsError) -> SearchResults {
        queries.withLock { $0.append(query) }
        return try await answer(query)
    }

    var asked: [String] { queries.withLock { $0 } }
}

/// Records where view models asked to go (a coordinator test double).
final class NavigatorRecorder: Navigator {
    private let routes = Mutex<[AppRoute]>([])
    func navigate(to route: AppRoute) { routes.withLock { $0.append(route) } }
    var recorded: [AppRoute] { routes.withLock { $0 } }

    /// Waits (yielding, a bounded number of times) until `count` routes are recorded.
    func waitFor(_ count: Int) async -> [AppRoute] {
        for _ in 0..<10_000 where recorded.count < count { await Task.yield() }
        return recorded
    }
}

/// An in-memory posts store that records what it was asked and can be told to fail.
final class PostsDouble: PostsUseCase {
    private struct State {
        var posts: [Post] = []
        var cursors: [String?] = []
        var saved: [Post] = []
        var deleted: [UUID] = []
        var failure: PostsError?
    }
    private let state = Mutex(State())
    private let page: (@Sendable (String?, Int) async throws(PostsError) -> PostsPage)?

    init(posts: [Post] = [], page: (@Sendable (String?, Int) async throws(PostsError) -> PostsPage)? = nil) {
        state.withLock { $0.posts = posts }
        self.page = page
    }

    /// Serves `all` in pages of the size asked for, the cursor being the offset.
    static func paged(_ all: [Post]) -> PostsDouble {
        PostsDouble { cursor, limit in
            let start = cursor.flatMap(Int.init) ?? 0
            let end = min(all.count, start + limit)
            return PostsPage(posts: Array(all[start..<end]), nextCursor: end < all.count ? "\(end)" : nil)
        }
    }

    func failing(with error: PostsError?) { state.withLock { $0.failure = error } }

    func posts(limit: Int, cursor: String?) async throws(PostsError) -> PostsPage {
        state.withLock { $0.cursors.append(cursor) }
        if let page { return try await page(cursor, limit) }
        return PostsPage(posts: state.withLock { Array($0.posts.prefix(limit)) }, nextCursor: nil)
    }

    func post(uid: UUID) async throws(PostsError) -> Post {
        try state.withLock { (state) throws(PostsError) -> Post in
            guard let post = state.posts.first(where: { $0.uid == uid }) else { throw .notFound(uid: uid) }
            return post
        }
    }

    func save(_ post: Post) async throws(PostsError) -> Post {
        try state.withLock { (state) throws(PostsError) -> Post in
            if let failure = state.failure { throw failure }
            state.saved.append(post)
            state.posts.removeAll { $0.uid == post.uid }
            state.posts.append(post)
            return post
        }
    }

    func save(_ post: Post, ifUnchangedSince readUpdateDate: Date) async throws(PostsError) -> Post {
        let current = state.withLock { state in state.posts.first { $0.uid == post.uid } }
        guard current?.updateDate == readUpdateDate else { throw .conflict(uid: post.uid) }
        return try await save(post)
    }

    func save(_ posts: [Post]) async throws(PostsError) -> Int { posts.count }

    func delete(uid: UUID) async throws(PostsError) -> Bool {
        try state.withLock { (state) throws(PostsError) -> Bool in
            if let failure = state.failure { throw failure }
            state.deleted.append(uid)
            state.posts.removeAll { $0.uid == uid }
            return true
        }
    }

    var asked: [String?] { state.withLock { $0.cursors } }
    var saved: [Post] { state.withLock { $0.saved } }
    var deleted: [UUID] { state.withLock { $0.deleted } }
}

/// Changes "elsewhere", sent by the test.
final class WatchDouble: PostsWatchUseCase {
    let stream: AsyncStream<Int64>
    let continuation: AsyncStream<Int64>.Continuation
    init() { (stream, continuation) = AsyncStream.makeStream(of: Int64.self) }
    func changes() -> AsyncStream<Int64> { stream }
}

/// A status use case that counts its calls.
final class StatusDouble: StatusUseCase {
    private let calls = Mutex(0)
    private let failure = Mutex<PostsError?>(nil)

    func failing(with error: PostsError?) { failure.withLock { $0 = error } }

    func status() async throws(PostsError) -> SystemStatus {
        let call = calls.withLock { $0 += 1; return $0 }
        if let error = failure.withLock({ $0 }) { throw error }
        return SystemStatus(source: "call \(call)", uptimeSeconds: nil, services: [], workers: [], posts: call)
    }

    var count: Int { calls.withLock { $0 } }
}

extension SearchResults {
    static func one(titled title: String, uid: UUID = UUID()) -> SearchResults {
        SearchResults(hits: [SearchHit(uid: uid, title: title, snippet: "…\(title)…", highlights: [1..<(1 + title.unicodeScalars.count)], score: 1)],
                      total: 1, sequence: 1)
    }
}

extension Post {
    static func stub(_ title: String, content: String = "First line\nsecond line", minutesAgo: Double = 5, now: Date) -> Post {
        let date = now.addingTimeInterval(-minutesAgo * 60)
        return Post(title: title, content: content, createDate: date, updateDate: date)
    }
}
