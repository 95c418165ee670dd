import Application
import Domain
import Foundation
import Synchronization
import TestSupport
import Testing

/// A search engine made of a closure; records every query it was asked.
final class SearchEngineDouble: SearchEngine {
    private let queries = Mutex<[String]>([])
    private let answer: @Sendable (String) async throws(PostsError) -> SearchResults

    init(_ answer: @escaping @Sendable (String) async throws(PostsError) -> SearchResults) { self.answer = answer }

    /// An engine nobody should ask: a search fails the test.
    static func unexpected(sourceLocation: SourceLocation = #_sourceLocation) -> SearchEngineDouble {
        SearchEngineDouble { query in
            Issue.record("searched for '\(query)', which nobody expected", sourceLocation: sourceLocation)
            return SearchResults(hits: [], total: 0, sequence: 0)
        }
    }

    func search(_ query: String, limit: Int, offset: Int) async throws(PostsError) -> SearchResults {
        queries.withLock { $0.append(query) }
        return try await answer(query)
    }

    var asked: [String] { queries.withLock { $0 } }
}

/// Records where view models asked to go (a coordinator test double).
final class NavigatorRecorder: Navigator {
    private let routes = Waitable<[AppRoute]>([])
    func navigate(to route: AppRoute) { routes.update { $0.append(route) } }
    var recorded: [AppRoute] { routes.value }

    /// Waits until `count` routes are recorded, and returns them.
    func waitFor(_ count: Int) async -> [AppRoute] {
        await routes.wait { $0.count >= count }
        return recorded
    }
}

/// Changes "elsewhere", sent by the test.
final class WatchDouble: PostsWatchUseCase {
    let stream: AsyncStream<Int64>
    let continuation: AsyncStream<Int64>.Continuation
    init() { (stream, continuation) = AsyncStream.makeStream(of: Int64.self) }
    func changes() -> AsyncStream<Int64> { stream }
}

/// A status source answering `shown` (its source saying which call it
/// answers), counting its calls; it can be told to fail.
final class StatusSourceDouble: StatusSource {
    private let calls = Mutex(0)
    private let failure = Mutex<PostsError?>(nil)
    private let shown: SystemStatus

    init(_ shown: SystemStatus = SystemStatus(source: "")) { self.shown = shown }

    func failing(with error: PostsError?) { failure.withLock { $0 = error } }

    func status() async throws(PostsError) -> SystemStatus {
        let call = calls.withLock {
            $0 += 1; return $0
        }
        if let error = failure.withLock({ $0 }) { throw error }
        var status = shown
        status.source = "call \(call)"
        return status
    }

    var count: Int { calls.withLock { $0 } }
}

/// A gate a test opens: calls wait at it until then, cancelled or not,
/// like a request already on its way to a slow service.
final class Gate: Sendable {
    private let isOpen = Waitable(false)
    func wait() async { await Task { [isOpen] in await isOpen.wait { $0 } }.value }
    func open() { isOpen.update { $0 = true } }
}

extension SearchResults {
    static func one(titled title: String, uid: UUID = UUID()) -> SearchResults {
        SearchResults(
            hits: [SearchHit(uid: uid, title: title, snippet: "…\(title)…", highlights: [1..<(1 + title.unicodeScalars.count)], score: 1)],
            total: 1, sequence: 1)
    }
}
