import Application
import Domain
import Foundation
import Testing

@Suite("Posts list view model", .timeLimit(.minutes(1)))
struct PostsListViewModelTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    struct Screen {
        let load = Feed<Void>(), loadMore = Feed<Void>(), select = Feed<UUID>()
        let create = Feed<Void>(), search = Feed<Void>(), status = Feed<Void>()
        let watch = WatchDouble()
        let navigator = NavigatorRecorder()
        let states: AsyncStream<PostsListState>

        init(posts: PostsDouble) {
            let model = PostsListViewModel(posts: posts, watch: watch, navigator: navigator, now: { PostsListViewModelTests.now })
            states = model.transform(input: .init(load: load.stream, loadMore: loadMore.stream, select: select.stream,
                                                  create: create.stream, search: search.stream, status: status.stream)).state
        }
    }

    @Test func test_loadingShowsFetchingThenTheItems_withExcerptAndRelativeDate() async {
        let screen = Screen(posts: PostsDouble(posts: [.stub("Hello", now: Self.now)]))
        var states = screen.states.makeAsyncIterator()
        screen.load.send()
        #expect(await states.next()?.isFetching == true)
        let loaded = await states.next()
        #expect(loaded?.isFetching == false && loaded?.hasMore == false && loaded?.loaded == true)
        #expect(loaded?.items.map(\.title) == ["Hello"])
        #expect(loaded?.items.first?.excerpt == "First line")
        #expect(loaded?.items.first?.date == "5 min ago")
    }

    @Test func test_loadingMoreAppendsTheNextPage_andStopsAtTheLast() async {
        let all = (0..<70).map { Post.stub("P\($0)", minutesAgo: Double($0), now: Self.now) }
        let posts = PostsDouble.paged(all)
        let screen = Screen(posts: posts)
        var states = screen.states.makeAsyncIterator()
        screen.load.send()
        _ = await states.next()
        let first = await states.next()
        #expect(first?.items.count == 50 && first?.hasMore == true)
        screen.loadMore.send()
        _ = await states.next()
        let both = await states.next()
        #expect(both?.items.map(\.title) == all.map(\.title))
        #expect(both?.hasMore == false)
        screen.loadMore.send()  // nothing more: no request
        screen.load.send()
        _ = await states.next()
        _ = await states.next()
        #expect(posts.asked == [nil, "50", nil], "load more at the end asked for nothing")
    }

    @Test func test_whenPostsChangeElsewhere_theListRefreshesFromTheTop() async {
        let posts = PostsDouble(posts: [.stub("First", now: Self.now)])
        let screen = Screen(posts: posts)
        var states = screen.states.makeAsyncIterator()
        screen.load.send()
        _ = await states.next()
        #expect(await states.next()?.items.map(\.title) == ["First"])
        _ = try? await posts.save(.stub("Made elsewhere", now: Self.now))
        screen.watch.continuation.yield(2)
        _ = await states.next()
        #expect(await states.next()?.items.map(\.title) == ["First", "Made elsewhere"])
        #expect(posts.asked == [nil, nil])
    }

    @Test func test_aRefreshReloadsAsManyPostsAsWereShown_inPages() async {
        let all = (0..<620).map { Post.stub("P\($0)", minutesAgo: Double($0), now: Self.now) }
        let posts = PostsDouble.paged(all)
        let screen = Screen(posts: posts)
        var states = screen.states.makeAsyncIterator()
        screen.load.send()
        _ = await states.next()
        _ = await states.next()
        for _ in 0..<11 {  // 50 at a time, as a person scrolls down
            screen.loadMore.send()
            _ = await states.next()
            _ = await states.next()
        }
        screen.loadMore.send()
        _ = await states.next()
        #expect(await states.next()?.items.count == 620)
        screen.load.send()
        _ = await states.next()
        let refreshed = await states.next()
        #expect(refreshed?.items.count == 620, "nothing shown before is cut off")
        #expect(refreshed?.hasMore == false)
    }

    @Test func test_aFailedLoadShowsTheError_andKeepsWhatWasShown() async {
        let all = (0..<70).map { Post.stub("P\($0)", minutesAgo: Double($0), now: Self.now) }
        let posts = PostsDouble { cursor, limit throws(PostsError) in
            if cursor != nil { throw .unavailable("no answer from the gateway") }
            return PostsPage(posts: Array(all.prefix(limit)), nextCursor: "\(limit)")
        }
        let screen = Screen(posts: posts)
        var states = screen.states.makeAsyncIterator()
        screen.load.send()
        _ = await states.next()
        _ = await states.next()
        screen.loadMore.send()
        _ = await states.next()
        let failed = await states.next()
        #expect(failed?.error == "no answer from the gateway")
        #expect(failed?.items.count == 50, "what was shown stays")
    }

    @Test func test_selectCreateSearchAndStatus_askTheCoordinator() async {
        let screen = Screen(posts: PostsDouble())
        let reading = Task { for await _ in screen.states {} }
        defer { reading.cancel() }
        let uid = UUID()
        screen.select.send(uid)
        #expect(await screen.navigator.waitFor(1) == [.detail(uid)])
        screen.create.send()
        #expect(await screen.navigator.waitFor(2) == [.detail(uid), .create])
        screen.search.send()
        #expect(await screen.navigator.waitFor(3) == [.detail(uid), .create, .search])
        screen.status.send()
        #expect(await screen.navigator.waitFor(4) == [.detail(uid), .create, .search, .status])
    }

    @Test(arguments: [(30.0, "just now"), (300, "5 min ago"), (7200, "2 h ago"), (90_000, "yesterday"), (345_600, "4 days ago")])
    func test_relativeDatesReadNaturally(_ secondsAgo: Double, _ text: String) {
        #expect(RelativeDate.describe(Self.now.addingTimeInterval(-secondsAgo), now: Self.now) == text)
    }
}
