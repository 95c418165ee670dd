import AsyncAlgorithms
import Clocks
import Domain
import Foundation
import Synchronization

/// Search as you type: waits until typing pauses (debounce), skips a query
/// equal to the last one, and keeps only the newest search running, so a
/// slow answer to an old query never replaces a newer one.
public struct SearchViewModel: ViewModelType, Sendable {
    public struct Input: Sendable {
        /// The text in the search field, after every keystroke.
        public var query: AsyncStream<String>
        /// Search the current query again now (posts may have changed).
        public var refresh: AsyncStream<Void>
        public var select: AsyncStream<UUID>
        public var back: AsyncStream<Void>

        public init(query: AsyncStream<String>, refresh: AsyncStream<Void>, select: AsyncStream<UUID>, back: AsyncStream<Void>) {
            (self.query, self.refresh, self.select, self.back) = (query, refresh, select, back)
        }
    }

    public struct Output: Sendable {
        /// What the screen shows, newest last. Reading it runs the screen;
        /// navigation stops when it is no longer read.
        public var state: AsyncStream<SearchState>
    }

    public static let debounce = Duration.milliseconds(300)
    public static let limit = 50

    let search: any SearchUseCase
    let watch: any PostsWatchUseCase
    let navigator: any Navigator
    let clock: AnyClock<Duration>

    /// `watch` says when posts changed; the query then runs again once the
    /// debounce interval has passed, by which time the search workers have
    /// applied the change (they take milliseconds: docs/BENCHMARKS.md).
    public init(search: any SearchUseCase, watch: any PostsWatchUseCase, navigator: any Navigator, clock: AnyClock<Duration>) {
        (self.search, self.watch, self.navigator, self.clock) = (search, watch, navigator, clock)
    }

    public func transform(input: Input) -> Output {
        let search = self.search
        let latest = Mutex("")
        let typed = input.query
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .debounce(for: Self.debounce, clock: clock)
            .removeDuplicates()
            .map { query in
                latest.withLock { $0 = query }
                return query
            }
        let changed = watch.changes().debounce(for: Self.debounce, clock: clock)
        let queries = merge(typed, input.refresh.map { latest.withLock { $0 } }, changed.map { _ in latest.withLock { $0 } })
        // Latest only: a new query cancels the search still running for the last one.
        let states = queries.flatMapLatest { query in
            AsyncStream<SearchState>.running { continuation in
                guard !query.isEmpty else {
                    continuation.yield(.idle)
                    return
                }
                continuation.yield(.searching(query))
                do {
                    let results = try await search.search(query, limit: Self.limit, offset: 0)
                    if !Task.isCancelled { continuation.yield(SearchState(query: query, results: results)) }
                } catch {
                    if !Task.isCancelled { continuation.yield(.failed(query, "\(error)")) }
                }
            }
        }
        let navigator = self.navigator
        let routes = funnel([.mapping(input.select) { AppRoute.detail($0) }, .mapping(input.back) { AppRoute.back }])
        let state = AsyncStream<SearchState>.running { continuation in
            let navigation = Task {
                for await route in routes {
                    navigator.navigate(to: route)
                    if route == .back { return }  // gone: a second Esc queued meanwhile must not close the screen below
                }
            }
            await withTaskCancellationHandler {
                for await state in states { continuation.yield(state) }
            } onCancel: {
                navigation.cancel()
            }
            navigation.cancel()
        }
        return Output(state: state)
    }
}

/// What the search screen shows.
public enum SearchState: Sendable, Equatable {
    case idle
    case searching(String)
    case results(String, [SearchItem], total: Int)
    case empty(String)
    case failed(String, String)

    init(query: String, results: SearchResults) {
        self = results.hits.isEmpty
            ? .empty(query)
            : .results(query, results.hits.map(SearchItem.init), total: results.total)
    }
}

/// One hit as the screen shows it.
public struct SearchItem: Sendable, Equatable, Identifiable {
    public var id: UUID
    public var title: String
    public var snippet: String
    /// Matched words in `snippet`, in Unicode scalars.
    public var highlights: [Range<Int>]

    init(_ hit: SearchHit) {
        (id, title, snippet, highlights) = (hit.uid, hit.title, hit.snippet, hit.highlights)
    }
}
