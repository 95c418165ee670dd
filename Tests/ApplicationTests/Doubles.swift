import Application
import Clocks
import Domain
import Foundation
import Synchronization
import Testing

/// A search use case made of a closure; records every query it was asked.
final class SearchDouble: SearchUseCase {
    let queries = Mutex<[String]>([])
    private let answer: @Sendable (String) async throws(PostsError) -> SearchResults

    init(_ answer: @escaping @Sendable (String) async throws(PostsError) -> SearchResults) { self.answer = answer }

    func search(_ query: String, limit: Int, offset: Int) async throws(PostsError) -> SearchResults {
        queries.withLock { $0.append(query) }
        return try await answer(query)
    }

    var asked: [String] { queries.withLock { $0 } }
}

/// Records where the view model asked to go.
final class NavigatorRecorder: SearchNavigator {
    enum Route: Equatable { case post(UUID), back }
    let routes = Mutex<[Route]>([])
    func toPost(uid: UUID) { routes.withLock { $0.append(.post(uid)) } }
    func back() { routes.withLock { $0.append(.back) } }
    var recorded: [Route] { routes.withLock { $0 } }
}

extension SearchResults {
    static func one(titled title: String, uid: UUID = UUID()) -> SearchResults {
        SearchResults(hits: [SearchHit(uid: uid, title: title, snippet: "…\(title)…", highlights: [1..<(1 + title.unicodeScalars.count)], score: 1)],
                      total: 1, sequence: 1)
    }
}

/// A posts use case that serves pages from a closure and fails the test on
/// any other call.
final class PostsDouble: PostsUseCase {
    let cursors = Mutex<[String?]>([])
    private let page: @Sendable (String?) async throws(PostsError) -> PostsPage

    init(_ page: @escaping @Sendable (String?) async throws(PostsError) -> PostsPage) { self.page = page }

    func posts(limit: Int, cursor: String?) async throws(PostsError) -> PostsPage {
        cursors.withLock { $0.append(cursor) }
        return try await page(cursor)
    }

    func post(uid: UUID) async throws(PostsError) -> Post { unexpected("post(uid:)") }
    func save(_ post: Post) async throws(PostsError) -> Post { unexpected("save") }
    func save(_ posts: [Post]) async throws(PostsError) -> Int { unexpected("save([Post])") }
    func delete(uid: UUID) async throws(PostsError) -> Bool { unexpected("delete") }

    private func unexpected(_ call: String) -> Never {
        Issue.record("unexpected call to \(call)")
        fatalError("unexpected call to \(call)")
    }

    var asked: [String?] { cursors.withLock { $0 } }
}

final class ListNavigatorRecorder: PostsListNavigator {
    enum Route: Equatable { case post(UUID), create, search }
    let routes = Mutex<[Route]>([])
    func toPost(uid: UUID) { routes.withLock { $0.append(.post(uid)) } }
    func toCreate() { routes.withLock { $0.append(.create) } }
    func toSearch() { routes.withLock { $0.append(.search) } }
    var recorded: [Route] { routes.withLock { $0 } }
}

extension Post {
    static func stub(_ title: String, content: String = "First line\nsecond line", minutesAgo: Double = 5, now: Date) -> Post {
        let date = now.addingTimeInterval(-minutesAgo * 60)
        return Post(title: title, content: content, createDate: date, updateDate: date)
    }
}
