import Clocks
import Domain
import Foundation

/// Search as you type: a query is searched once typing has paused for
/// `debounce` (on the injected clock), a query equal to the last one
/// searched is not searched again, and only the newest search counts, so a
/// slow answer to an old query never replaces a newer one.
public struct SearchViewModel: ViewModelType, Sendable {
    /// What the person did, in the order they did it.
    public enum Action: Sendable, Equatable {
        /// The text in the search field, after a keystroke.
        case query(String)
        /// Search the current query again now (posts may have changed).
        case refresh
        case select(UUID)
        case back
    }

    public struct Input: Sendable {
        public var actions: AsyncStream<Action>
        public init(actions: AsyncStream<Action>) { self.actions = actions }
    }

    public struct Output: Sendable {
        /// What the screen shows, newest last.
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

    private enum Event: Sendable { case person(Action), changed, changeSettled }

    public func transform(input: Input) -> Output {
        let (search, navigator, clock, actions, changes) = (search, navigator, clock, input.actions, watch.changes())
        let state = AsyncStream<SearchState>.running { continuation in
            let (events, event) = AsyncStream.makeStream(of: Event.self)
            let feeding = [
                Task {
                    for await action in actions { event.yield(.person(action)) }; event.finish()
                },
                Task { for await _ in changes { event.yield(.changed) } },
            ]
            let latest = LatestSearch(continuation)
            var timers: [Task<Void, Never>] = []
            defer { (feeding + timers).forEach { $0.cancel() }; latest.cancel() }
            var query = ""
            for await next in events {
                switch next {
                case .person(.query(let text)):
                    query = text.trimmingCharacters(in: .whitespaces)
                    latest.start(query, after: Self.debounce, clock: clock, force: false, search: search)
                case .person(.refresh):
                    latest.start(query, after: nil, clock: clock, force: true, search: search)
                case .changed:
                    // Its own timer: a refresh or a keystroke meanwhile must not
                    // cancel it, or the answer could predate the change.
                    let settled = Task { if (try? await clock.sleep(for: Self.debounce)) != nil { event.yield(.changeSettled) } }
                    timers.append(settled)
                case .changeSettled:
                    latest.start(query, after: nil, clock: clock, force: true, search: search)
                case .person(.select(let uid)):
                    navigator.navigate(to: .detail(uid))
                case .person(.back):
                    navigator.navigate(to: .back)
                    return  // the screen is done; nothing after this is for it
                }
            }
        }
        return Output(state: state)
    }
}
