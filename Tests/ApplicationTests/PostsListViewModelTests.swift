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
        let posts = PostsDouble { cursor in
            cursor == nil ? PostsPage(posts: [.stub("A", now: Self.now)], nextCursor: "c2")
                          : PostsPage(posts: [.stub("B", now: Self.now)], nextCursor: nil)
        }
        let screen = Screen(posts: posts)
        var states = screen.states.makeAsyncIterator()
        screen.load.send()
        _ = await states.next()
        #expect(await states.next()?.hasMore == true)
        screen.loadMore.send()
        _ = await states.next()
        let both = await states.next()
        #expect(both?.items.map(\.title) == ["A", "B"])
        #expect(both?.hasMore == false)
        screen.loadMore.send()  // nothing more: no request
        screen.load.send()
        _ = await states.next()
        _ = await states.next()
        #expect(posts.asked == [nil, "c2", nil], "load more at the end asked for nothing")
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

    @Test func test_aFailedLoadShowsTheError_andKeepsWhatWasShown() async {
        let posts = PostsDouble { cursor throws(PostsError) in
            if cursor == "c2" { throw .unavailable("no answer from the gateway") }
            return PostsPage(posts: [.stub("A", now: Self.now)], nextCursor: "c2")
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
        #expect(failed?.items.map(\.title) == ["A"])
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
