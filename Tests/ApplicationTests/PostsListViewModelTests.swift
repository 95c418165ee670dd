import Application
import Domain
import Foundation
import Testing

@Suite("Posts list view model", .serialized)
struct PostsListViewModelTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    struct Screen {
        let load = AsyncStream.makeStream(of: Void.self)
        let loadMore = AsyncStream.makeStream(of: Void.self)
        let select = AsyncStream.makeStream(of: UUID.self)
        let create = AsyncStream.makeStream(of: Void.self)
        let search = AsyncStream.makeStream(of: Void.self)
        let changes = AsyncStream.makeStream(of: Void.self)
        let output: PostsListViewModel.Output

        init(posts: PostsDouble, navigator: ListNavigatorRecorder = ListNavigatorRecorder()) {
            let model = PostsListViewModel(posts: posts, changes: changes.stream, navigator: navigator, now: { PostsListViewModelTests.now })
            output = model.transform(input: .init(load: load.stream, loadMore: loadMore.stream, select: select.stream,
                                                  create: create.stream, search: search.stream))
        }
    }

    @Test func test_loadingShowsFetchingThenTheItems_withExcerptAndRelativeDate() async {
        do {
            let screen = Screen(posts: PostsDouble { _ in PostsPage(posts: [.stub("Hello", now: Self.now)], nextCursor: nil) })
            var states = screen.output.state.makeAsyncIterator()
            screen.load.continuation.yield(())
            #expect(await states.next()?.isFetching == true)
            let loaded = await states.next()
            #expect(loaded?.isFetching == false && loaded?.hasMore == false)
            #expect(loaded?.items.map(\.title) == ["Hello"])
            #expect(loaded?.items.first?.excerpt == "First line")
            #expect(loaded?.items.first?.date == "5 min ago")
        }
    }

    @Test func test_loadingMoreAppendsTheNextPage_andStopsAtTheLast() async {
        do {
            let posts = PostsDouble { cursor in
                cursor == nil ? PostsPage(posts: [.stub("A", now: Self.now)], nextCursor: "c2")
                              : PostsPage(posts: [.stub("B", now: Self.now)], nextCursor: nil)
            }
            let screen = Screen(posts: posts)
            var states = screen.output.state.makeAsyncIterator()
            screen.load.continuation.yield(())
            _ = await states.next()
            #expect(await states.next()?.hasMore == true)
            screen.loadMore.continuation.yield(())
            _ = await states.next()
            let both = await states.next()
            #expect(both?.items.map(\.title) == ["A", "B"])
            #expect(both?.hasMore == false)
            screen.loadMore.continuation.yield(())  // nothing more: no request
            await Task.megaYield()
            #expect(posts.asked == [nil, "c2"])
        }
    }

    @Test func test_whenPostsChangeElsewhere_theListRefreshesFromTheTop() async {
        do {
            let posts = PostsDouble { _ in PostsPage(posts: [.stub("Fresh", now: Self.now)], nextCursor: nil) }
            let screen = Screen(posts: posts)
            var states = screen.output.state.makeAsyncIterator()
            screen.load.continuation.yield(())
            _ = await states.next()
            _ = await states.next()
            screen.changes.continuation.yield(())
            _ = await states.next()
            #expect(await states.next()?.items.map(\.title) == ["Fresh"])
            #expect(posts.asked == [nil, nil])
        }
    }

    @Test func test_aFailedLoadShowsTheError_andKeepsWhatWasShown() async {
        do {
            let posts = PostsDouble { cursor throws(PostsError) in
                if cursor == "c2" { throw .unavailable("no answer from the gateway") }
                return PostsPage(posts: [.stub("A", now: Self.now)], nextCursor: "c2")
            }
            let screen = Screen(posts: posts)
            var states = screen.output.state.makeAsyncIterator()
            screen.load.continuation.yield(())
            _ = await states.next()
            _ = await states.next()
            screen.loadMore.continuation.yield(())
            _ = await states.next()
            let failed = await states.next()
            #expect(failed?.error == "no answer from the gateway")
            #expect(failed?.items.map(\.title) == ["A"])
        }
    }

    @Test func test_selectCreateAndSearch_askTheCoordinator() async {
        do {
            let navigator = ListNavigatorRecorder()
            let screen = Screen(posts: PostsDouble { _ in PostsPage(posts: [], nextCursor: nil) }, navigator: navigator)
            let uid = UUID()
            screen.select.continuation.yield(uid)
            await Task.megaYield()
            screen.create.continuation.yield(())
            await Task.megaYield()
            screen.search.continuation.yield(())
            await Task.megaYield()
            #expect(navigator.recorded == [.post(uid), .create, .search])
            screen.output.navigation.cancel()
        }
    }

    @Test(arguments: [(30.0, "just now"), (300, "5 min ago"), (7200, "2 h ago"), (90_000, "yesterday"), (345_600, "4 days ago")])
    func test_relativeDatesReadNaturally(_ secondsAgo: Double, _ text: String) {
        #expect(RelativeDate.describe(Self.now.addingTimeInterval(-secondsAgo), now: Self.now) == text)
    }
}
