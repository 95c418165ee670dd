import Domain
import Foundation

/// The posts list: load (and refresh), load more by cursor, and refresh by
/// itself when posts change elsewhere. One request at a time, in order.
public struct PostsListViewModel: ViewModelType, Sendable {
    public struct Input: Sendable {
        /// Load from the top: on appearing, and on "refresh".
        public var load: AsyncStream<Void>
        public var loadMore: AsyncStream<Void>
        public var select: AsyncStream<UUID>
        public var create: AsyncStream<Void>
        public var search: AsyncStream<Void>
        public var status: AsyncStream<Void>

        public init(load: AsyncStream<Void>, loadMore: AsyncStream<Void>, select: AsyncStream<UUID>,
                    create: AsyncStream<Void>, search: AsyncStream<Void>, status: AsyncStream<Void>) {
            (self.load, self.loadMore, self.select) = (load, loadMore, select)
            (self.create, self.search, self.status) = (create, search, status)
        }
    }

    public struct Output: Sendable {
        public var state: AsyncStream<PostsListState>
    }

    public static let pageSize = 50

    let posts: any PostsUseCase
    let watch: any PostsWatchUseCase
    let navigator: any Navigator
    let now: @Sendable () -> Date

    public init(posts: any PostsUseCase, watch: any PostsWatchUseCase, navigator: any Navigator,
                now: @escaping @Sendable () -> Date = Date.init) {
        (self.posts, self.watch, self.navigator, self.now) = (posts, watch, navigator, now)
    }

    enum Action: Sendable { case refresh, more }

    public func transform(input: Input) -> Output {
        let actions = funnel([
            .mapping(input.load) { Action.refresh }, .mapping(input.loadMore) { Action.more },
            .mapping(watch.changes()) { _ in Action.refresh },
        ])
        let routes = funnel([
            .mapping(input.select) { AppRoute.detail($0) }, .mapping(input.create) { AppRoute.create },
            .mapping(input.search) { AppRoute.search }, .mapping(input.status) { AppRoute.status },
        ])
        let (posts, navigator, now) = (self.posts, self.navigator, self.now)
        let state = AsyncStream<PostsListState>.running { continuation in
            // Navigation is never kept waiting behind a page that is loading.
            let navigation = Task { for await route in routes { navigator.navigate(to: route) } }
            defer { navigation.cancel() }
            var state = PostsListState()
            var cursor: String?
            for await action in actions {
                let fromTop: Bool
                switch action {
                case .more where cursor == nil:
                    continue  // nothing more to load
                case .more:
                    fromTop = false
                case .refresh:
                    fromTop = true
                }
                state.isFetching = true
                state.error = nil
                continuation.yield(state)
                do {
                    // A refresh reloads as many posts as were shown, page by page,
                    // so the place in the list is kept however far it was scrolled.
                    let wanted = fromTop ? max(Self.pageSize, state.items.count) : Self.pageSize
                    var items: [PostItem] = []
                    var next = fromTop ? nil : cursor
                    repeat {
                        let limit = min(wanted - items.count, PostRules.pageSize.upperBound)
                        let page = try await posts.posts(limit: limit, cursor: next)
                        items += page.posts.map { PostItem($0, now: now()) }
                        next = page.nextCursor
                    } while items.count < wanted && next != nil
                    state.items = fromTop ? items : state.items + items
                    cursor = next
                    state.hasMore = cursor != nil
                    state.loaded = true
                } catch {
                    state.error = "\(error)"
                }
                state.isFetching = false
                continuation.yield(state)
            }
        }
        return Output(state: state)
    }
}

/// What the posts list shows.
public struct PostsListState: Sendable, Equatable {
    public var items: [PostItem] = []
    public var isFetching = false
    public var hasMore = false
    /// Set once a page has arrived, so "no posts yet" is not shown before.
    public var loaded = false
    public var error: String?

    public init() {}
}
