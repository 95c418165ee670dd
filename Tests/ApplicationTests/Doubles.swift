import Application
import Clocks
import Domain
import Foundation
import Synchronization

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
