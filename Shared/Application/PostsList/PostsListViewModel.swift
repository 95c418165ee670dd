import Domain
import Foundation

/// The posts list: load (and refresh), load more by cursor, and refresh by
/// itself when posts change elsewhere. One request at a time, in order.
public struct PostsListViewModel: ViewModelType, Sendable {
    /// What the person did, in the order they did it.
    public enum Action: Sendable, Equatable {
        /// Load from the top: on appearing, and on "refresh".
        case load
        case loadMore
        case select(UUID)
        case create, search, status
    }

    public struct Input: Sendable {
        public var actions: AsyncStream<Action>
        public init(actions: AsyncStream<Action>) { self.actions = actions }
    }

    public struct Output: Sendable {
        public var state: AsyncStream<PostsListState>
    }

    public static let pageSize = 50

    let posts: any PostsUseCase
    let watch: any PostsWatchUseCase
    let navigator: any Navigator
    let now: @Sendable () -> Date

    public init(
        posts: any PostsUseCase, watch: any PostsWatchUseCase, navigator: any Navigator,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        (self.posts, self.watch, self.navigator, self.now) = (posts, watch, navigator, now)
    }

    private enum Fetch: Sendable { case fromTop, more }

    public func transform(input: Input) -> Output {
        let (posts, navigator, now, actions, changes) = (posts, navigator, now, input.actions, watch.changes())
        let state = AsyncStream<PostsListState>.running { continuation in
            // Navigation goes at once, in order, never kept waiting behind a
            // page that is loading; fetches (the person's, and refreshes for
            // changes made elsewhere) are done one at a time, in order.
            let (fetches, fetch) = AsyncStream.makeStream(of: Fetch.self)
            let routing = Task {
                for await action in actions {
                    switch action {
                    case .load: fetch.yield(.fromTop)
                    case .loadMore: fetch.yield(.more)
                    case .select(let uid): navigator.navigate(to: .detail(uid))
                    case .create: navigator.navigate(to: .create)
                    case .search: navigator.navigate(to: .search)
                    case .status: navigator.navigate(to: .status)
                    }
                }
                fetch.finish()
            }
            let watching = Task { for await _ in changes { fetch.yield(.fromTop) } }
            defer { routing.cancel(); watching.cancel() }
            var state = PostsListState()
            var cursor: String?
            for await request in fetches {
                if request == .more && cursor == nil { continue }  // nothing more to load
                (state.isFetching, state.problem) = (true, nil)
                continuation.yield(state)
                do throws(PostsError) {
                    // A refresh reloads as many posts as were shown, page by page,
                    // so the place in the list is kept however far it was scrolled.
                    let wanted = request == .fromTop ? max(Self.pageSize, state.items.count) : Self.pageSize
                    var items: [PostItem] = []
                    var next = request == .fromTop ? nil : cursor
                    repeat {
                        let page = try await posts.posts(limit: min(wanted - items.count, PostRules.pageSize.upperBound), cursor: next)
                        items += page.posts.map { PostItem($0, now: now()) }
                        next = page.nextCursor
                    } while items.count < wanted && next != nil
                    state.items = request == .fromTop ? items : state.items + items
                    cursor = next
                    (state.hasMore, state.loaded) = (cursor != nil, true)
                } catch {
                    state.problem = Problem(error)
                }
                state.isFetching = false
                continuation.yield(state)
            }
        }
        return Output(state: state)
    }
}
