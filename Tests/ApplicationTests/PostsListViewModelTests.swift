import Application
import Domain
import Foundation
import TestSupport
import Testing

// 3 minutes: a hang guard. Its rounds of racing keys take 0.4 s alone and
// 20-34 s in a full run, where a hundred child processes share two cores.
@Suite("Posts list view model", .timeLimit(.minutes(3)))
struct PostsListViewModelTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// The view model over the real interactor on an in-memory store.
    struct Screen {
        let actions = Feed<PostsListViewModel.Action>()
        let watch = WatchDouble()
        let navigator = NavigatorRecorder()
        let states: AsyncStream<PostsListState>

        init(store: MemoryPostStore) {
            let model = PostsListViewModel(
                posts: PostsInteractor(store: store), watch: watch, navigator: navigator,
                now: { PostsListViewModelTests.now })
            states = model.transform(input: .init(actions: actions.stream)).state
        }
    }

    /// `count` posts, newest first one minute apart.
    static func posts(_ count: Int) -> [Post] { (0..<count).map { Post.stub("P\($0)", minutesAgo: Double($0), now: now) } }

    @Test func test_loadingShowsFetchingThenTheItems_withExcerptAndRelativeDate() async {
        let screen = Screen(store: MemoryPostStore(posts: [.stub("Hello", now: Self.now)]))
        var states = screen.states.makeAsyncIterator()
        screen.actions.send(.load)
        #expect(await states.next()?.isFetching == true)
        let loaded = await states.next()
        #expect(loaded?.isFetching == false && loaded?.hasMore == false && loaded?.loaded == true)
        #expect(loaded?.items.map(\.title) == ["Hello"])
        #expect(loaded?.items.first?.excerpt == "First line")
        #expect(loaded?.items.first?.date == "5 min ago")
    }

    @Test func test_loadingMoreAppendsTheNextPage_andStopsAtTheLast() async {
        let all = Self.posts(70)
        let store = MemoryPostStore(posts: all)
        let screen = Screen(store: store)
        var states = screen.states.makeAsyncIterator()
        screen.actions.send(.load)
        _ = await states.next()
        let first = await states.next()
        #expect(first?.items.count == 50 && first?.hasMore == true)
        screen.actions.send(.loadMore)
        _ = await states.next()
        let both = await states.next()
        #expect(both?.items.map(\.title) == all.map(\.title))
        #expect(both?.hasMore == false)
        screen.actions.send(.loadMore)  // nothing more: no request
        screen.actions.send(.load)
        _ = await states.next()
        _ = await states.next()
        #expect(store.asked == [nil, all[49].uid.uuidString, nil], "load more at the end asked for nothing")
    }

    @Test func test_whenPostsChangeElsewhere_theListRefreshesFromTheTop() async throws {
        let store = MemoryPostStore(posts: [.stub("First", now: Self.now)])
        let screen = Screen(store: store)
        var states = screen.states.makeAsyncIterator()
        screen.actions.send(.load)
        _ = await states.next()
        #expect(await states.next()?.items.map(\.title) == ["First"])
        _ = try await store.save(.stub("Made elsewhere", minutesAgo: 10, now: Self.now), ifUnchangedSince: nil, key: nil)
        screen.watch.continuation.yield(2)
        _ = await states.next()
        #expect(await states.next()?.items.map(\.title) == ["First", "Made elsewhere"])
        #expect(store.asked == [nil, nil])
    }

    @Test func test_aRefreshReloadsAsManyPostsAsWereShown_inPages() async {
        let screen = Screen(store: MemoryPostStore(posts: Self.posts(620)))
        var states = screen.states.makeAsyncIterator()
        screen.actions.send(.load)
        _ = await states.next()
        _ = await states.next()
        for _ in 0..<12 {  // 50 at a time, as a person scrolls down
            screen.actions.send(.loadMore)
            _ = await states.next()
            _ = await states.next()
        }
        screen.actions.send(.load)
        _ = await states.next()
        let refreshed = await states.next()
        #expect(refreshed?.items.count == 620, "nothing shown before is cut off")
        #expect(refreshed?.hasMore == false)
    }

    @Test func test_aFailedLoadShowsAnOutage_andKeepsWhatWasShown() async {
        let store = MemoryPostStore(posts: Self.posts(70))
        let screen = Screen(store: store)
        var states = screen.states.makeAsyncIterator()
        screen.actions.send(.load)
        _ = await states.next()
        _ = await states.next()
        store.failing(with: .unavailable(.noAnswer(endpoint: "ipc://g", seconds: 2)))
        screen.actions.send(.loadMore)
        _ = await states.next()
        let failed = await states.next()
        #expect(failed?.problem == .outage(.noAnswer(endpoint: "ipc://g", seconds: 2)))
        #expect(failed?.items.count == 50, "what was shown stays")
    }

    @Test func test_selectCreateSearchAndStatus_askTheCoordinator_inTheOrderPressed() async {
        let screen = Screen(store: MemoryPostStore())
        let reading = Task { for await _ in screen.states {} }
        defer { reading.cancel() }
        let uid = UUID()
        for action in [PostsListViewModel.Action.select(uid), .create, .search, .status] { screen.actions.send(action) }
        #expect(await screen.navigator.waitFor(4) == [.detail(uid), .create, .search, .status])
    }

    @Test func test_navigationIsNeverKeptWaitingBehindASlowPage() async {
        let gate = Gate()
        let screen = Screen(store: MemoryPostStore(posts: Self.posts(3), gate: { await gate.wait() }))
        var states = screen.states.makeAsyncIterator()
        screen.actions.send(.load)
        #expect(await states.next()?.isFetching == true)
        screen.actions.send(.create)
        #expect(await screen.navigator.waitFor(1) == [.create], "while the page is still loading")
        gate.open()
        #expect(await states.next()?.items.count == 3)
    }

    @Test(arguments: [(30.0, "just now"), (300, "5 min ago"), (7200, "2 h ago"), (90_000, "yesterday"), (345_600, "4 days ago")])
    func test_relativeDatesReadNaturally(_ secondsAgo: Double, _ text: String) async {
        #expect(RelativeDate.describe(Self.now.addingTimeInterval(-secondsAgo), now: Self.now) == text)
    }
}
