import Application
import Domain
import TestSupport
import Testing

/// Searching again: on demand, after changes elsewhere, and after a failure.
extension SearchViewModelTests {
    @Test func test_refreshSearchesTheSameQueryAgain_atOnce() async {
        let engine = SearchEngineDouble { .one(titled: $0) }
        let screen = Screen(engine: engine)
        var states = screen.states.makeAsyncIterator()
        await screen.searched("zebra", &states)
        screen.actions.send(.refresh)  // back from a post that was just deleted, say
        #expect(await states.next() == .searching("zebra"))
        _ = await states.next()
        #expect(engine.asked == ["zebra", "zebra"])
    }

    @Test func test_whenPostsChangeElsewhere_theQueryRunsAgain_afterTheDebounce() async {
        let engine = SearchEngineDouble { .one(titled: $0) }
        let screen = Screen(engine: engine)
        var states = screen.states.makeAsyncIterator()
        await screen.changedAfterSearching("zebra", &states)
        screen.clock.advance(by: .milliseconds(299))
        #expect(engine.asked == ["zebra"], "the workers get time to apply the change")
        screen.clock.advance(by: .milliseconds(1))
        #expect(await states.next() == .searching("zebra"))
        _ = await states.next()
        #expect(engine.asked == ["zebra", "zebra"])
    }

    @Test func test_aRefreshRightAfterAChange_doesNotCancelTheSearchAfterTheChange() async {
        let engine = SearchEngineDouble { .one(titled: $0) }
        let screen = Screen(engine: engine)
        var states = screen.states.makeAsyncIterator()
        await screen.changedAfterSearching("zebra", &states)
        screen.actions.send(.refresh)  // back from the post just deleted: the workers may not have applied it yet
        #expect(await states.next() == .searching("zebra"))
        _ = await states.next()
        screen.clock.advance(by: SearchViewModel.debounce)
        #expect(await states.next() == .searching("zebra"), "searched again once the change has had time to apply")
        _ = await states.next()
        #expect(engine.asked == ["zebra", "zebra", "zebra"])
    }

    @Test func test_aFailedSearchShowsItsProblem_andNothingMatchingShowsEmpty() async {
        let engine = SearchEngineDouble { query throws(PostsError) in
            if query == "down" { throw .unavailable(.noWorker(service: "search")) }
            return SearchResults(hits: [], total: 0, sequence: 3)
        }
        let screen = Screen(engine: engine)
        var states = screen.states.makeAsyncIterator()
        await screen.type("down")
        screen.clock.advance(by: SearchViewModel.debounce)
        #expect(await states.next() == .searching("down"))
        #expect(await states.next() == .failed("down", .outage(.noWorker(service: "search"))))
        await screen.type("nothing")
        screen.clock.advance(by: SearchViewModel.debounce)
        #expect(await states.next() == .searching("nothing"))
        #expect(await states.next() == .empty("nothing"))
    }
}
