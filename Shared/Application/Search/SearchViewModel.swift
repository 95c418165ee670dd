import AsyncAlgorithms
import Clocks
import Domain
import Foundation

/// Search as you type: waits until typing pauses (debounce), skips a query
/// equal to the last one, and keeps only the newest search running, so a
/// slow answer to an old query never replaces a newer one.
public struct SearchViewModel: ViewModelType, Sendable {
    public struct Input: Sendable {
        public var query: AsyncStream<String>
        public var selection: AsyncStream<UUID>
        public var back: AsyncStream<Void>

        public init(query: AsyncStream<String>, selection: AsyncStream<UUID>, back: AsyncStream<Void>) {
            (self.query, self.selection, self.back) = (query, selection, back)
        }
    }

    public struct Output: Sendable {
        /// What the screen shows, newest last.
        public var state: AsyncStream<SearchState>
        /// Runs navigation: the view keeps it going for as long as it shows the screen.
        public var navigation: Task<Void, Never>
    }

    public static let debounce = Duration.milliseconds(300)

    let search: any SearchUseCase
    let navigator: any SearchNavigator
    let clock: AnyClock<Duration>

    public init(search: any SearchUseCase, navigator: any SearchNavigator, clock: AnyClock<Duration>) {
        self.search = search
        self.navigator = navigator
        self.clock = clock
    }

    public func transform(input: Input) -> Output {
        let search = self.search
        let queries = input.query
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .debounce(for: Self.debounce, clock: clock)
            .removeDuplicates()
        let states = queries.flatMapLatest { query in
            AsyncStream(SearchState.self) { continuation in
                let work = Task {
                    guard !query.isEmpty else {
                        continuation.yield(.idle)
                        continuation.finish()
                        return
                    }
                    continuation.yield(.searching(query))
                    do {
                        let results = try await search.search(query, limit: 50, offset: 0)
                        if !Task.isCancelled { continuation.yield(SearchState(query: query, results: results)) }
                    } catch {
                        if !Task.isCancelled { continuation.yield(.failed(query, "\(error)")) }
                    }
                    continuation.finish()
                }
                continuation.onTermination = { _ in work.cancel() }
            }
        }
        let navigator = self.navigator
        let navigation = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { for await uid in input.selection { navigator.toPost(uid: uid) } }
                group.addTask { for await _ in input.back { navigator.back() } }
            }
        }
        return Output(state: AsyncStream(wrapping: states), navigation: navigation)
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

extension AsyncStream {
    /// Wraps any sendable async sequence that never fails.
    init<Base: AsyncSequence & Sendable>(wrapping base: Base) where Base.Element == Element, Base.Failure == Never, Element: Sendable {
        self.init { continuation in
            let task = Task {
                for await element in base { continuation.yield(element) }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
