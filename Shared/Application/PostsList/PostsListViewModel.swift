import AsyncAlgorithms
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

        public init(load: AsyncStream<Void>, loadMore: AsyncStream<Void>, select: AsyncStream<UUID>,
                    create: AsyncStream<Void>, search: AsyncStream<Void>) {
            (self.load, self.loadMore, self.select, self.create, self.search) = (load, loadMore, select, create, search)
        }
    }

    public struct Output: Sendable {
        public var state: AsyncStream<PostsListState>
        public var navigation: Task<Void, Never>
    }

    public static let pageSize = 20

    let posts: any PostsUseCase
    /// Fires when posts changed elsewhere (the platform's change notices).
    let changes: AsyncStream<Void>
    let navigator: any PostsListNavigator
    let now: @Sendable () -> Date

    public init(posts: any PostsUseCase, changes: AsyncStream<Void>, navigator: any PostsListNavigator,
                now: @escaping @Sendable () -> Date = Date.init) {
        (self.posts, self.changes, self.navigator, self.now) = (posts, changes, navigator, now)
    }

    enum Action: Sendable { case refresh, more }

    public func transform(input: Input) -> Output {
        let actions = merge(input.load.map { Action.refresh }, input.loadMore.map { Action.more }, changes.map { Action.refresh })
        let posts = self.posts
        let now = self.now
        let state = AsyncStream(PostsListState.self) { continuation in
            let work = Task {
                var state = PostsListState()
                var cursor: String?
                for await action in actions {
                    if action == .more, cursor == nil { continue }  // nothing more to load
                    state.isFetching = true
                    state.error = nil
                    continuation.yield(state)
                    do {
                        let page = try await posts.posts(limit: Self.pageSize, cursor: action == .refresh ? nil : cursor)
                        let items = page.posts.map { PostItem($0, now: now()) }
                        state.items = action == .refresh ? items : state.items + items
                        cursor = page.nextCursor
                        state.hasMore = cursor != nil
                    } catch {
                        state.error = "\(error)"
                    }
                    state.isFetching = false
                    continuation.yield(state)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in work.cancel() }
        }
        let navigator = self.navigator
        let navigation = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { for await uid in input.select { navigator.toPost(uid: uid) } }
                group.addTask { for await _ in input.create { navigator.toCreate() } }
                group.addTask { for await _ in input.search { navigator.toSearch() } }
            }
        }
        return Output(state: state, navigation: navigation)
    }
}

/// What the posts list shows.
public struct PostsListState: Sendable, Equatable {
    public var items: [PostItem] = []
    public var isFetching = false
    public var hasMore = false
    public var error: String?
}

/// One post as the list shows it: title, a one-line excerpt, a relative date.
public struct PostItem: Sendable, Equatable, Identifiable {
    public var id: UUID
    public var title: String
    public var excerpt: String
    public var date: String

    public init(_ post: Post, now: Date) {
        id = post.uid
        title = post.title
        let line = post.content.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        excerpt = line.count > 80 ? String(line.prefix(79)) + "…" : line
        date = RelativeDate.describe(post.updateDate, now: now)
    }
}

/// "just now", "5 min ago", "3 h ago", "yesterday", "4 days ago", then the date.
public enum RelativeDate {
    public static func describe(_ date: Date, now: Date) -> String {
        let seconds = now.timeIntervalSince(date)
        switch seconds {
        case ..<(-60): return day(date)
        case ..<60: return "just now"
        case ..<3600: return "\(Int(seconds / 60)) min ago"
        case ..<86_400: return "\(Int(seconds / 3600)) h ago"
        case ..<(86_400 * 2): return "yesterday"
        case ..<(86_400 * 30): return "\(Int(seconds / 86_400)) days ago"
        default: return day(date)
        }
    }

    static func day(_ date: Date) -> String { date.formatted(Date.ISO8601FormatStyle().year().month().day()) }
}
