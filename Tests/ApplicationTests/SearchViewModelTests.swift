import Application
import Clocks
import Domain
import Foundation
import Synchronization
import Testing

/// Search as you type, on a manual clock: each test waits for the view
/// model's sleep to be registered before moving the clock, so it is
/// deterministic with no executor hook, in the same process as every other test.
@Suite("Search view model", .timeLimit(.minutes(1)))
struct SearchViewModelTests {
    struct Screen {
        let clock = ManualClock()
        let actions = Feed<SearchViewModel.Action>()
        let watch = WatchDouble()
        let navigator = NavigatorRecorder()
        let states: AsyncStream<SearchState>

        init(engine: SearchEngineDouble) {
            let model = SearchViewModel(search: SearchInteractor(engine: engine), watch: watch, navigator: navigator, clock: AnyClock(clock))
            states = model.transform(input: .init(actions: actions.stream)).state
        }

        /// Types `text` and waits until the view model waits out the debounce from now.
        func type(_ text: String) async {
            actions.send(.query(text))
            await clock.waitForSleeper(until: clock.now.offset + SearchViewModel.debounce)
        }

        /// Types `text`, lets the debounce pass, and reads the two states a
        /// search shows (searching, then its answer).
        func searched(_ text: String, _ states: inout AsyncStream<SearchState>.Iterator) async {
            await type(text)
            clock.advance(by: SearchViewModel.debounce)
            _ = await states.next()
            _ = await states.next()
        }

        /// Searches `text`, then posts change elsewhere: waits until the view
        /// model waits out the debounce before searching again.
        func changedAfterSearching(_ text: String, _ states: inout AsyncStream<SearchState>.Iterator) async {
            await searched(text, &states)
            watch.continuation.yield(7)
            await clock.waitForSleeper(until: clock.now.offset + SearchViewModel.debounce)
        }
    }

    @Test func test_whenTypingPauses_thenOnlyTheLastQueryIsSearched() async {
        let engine = SearchEngineDouble { .one(titled: $0) }
        let screen = Screen(engine: engine)
        var states = screen.states.makeAsyncIterator()
        await screen.type("s")
        screen.clock.advance(by: .milliseconds(100))
        await screen.type("sw")
        screen.clock.advance(by: .milliseconds(100))
        await screen.type("swi")
        screen.clock.advance(by: .milliseconds(299))
        #expect(engine.asked.isEmpty, "nothing is searched while typing continues")
        screen.clock.advance(by: .milliseconds(1))
        #expect(await states.next() == .searching("swi"))
        guard case .results("swi", let items, total: 1)? = await states.next() else {
            Issue.record("expected results for 'swi'")
            return
        }
        #expect(items.map(\.title) == ["swi"])
        #expect(engine.asked == ["swi"])
    }

    @Test func test_whenTheSameQueryComesAgain_thenItIsNotSearchedTwice() async {
        let engine = SearchEngineDouble { .one(titled: $0) }
        let screen = Screen(engine: engine)
        var states = screen.states.makeAsyncIterator()
        await screen.searched("swift", &states)
        await screen.type("swift ")  // the same once trimmed
        screen.clock.advance(by: SearchViewModel.debounce)
        await screen.type("swiftly")
        screen.clock.advance(by: SearchViewModel.debounce)
        #expect(await states.next() == .searching("swiftly"))
        #expect(engine.asked == ["swift", "swiftly"])
    }

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

    @Test func test_aSlowStaleAnswerNeverReplacesANewerOne() async {
        let gate = Gate()
        let slowAnswered = Atomic(false)
        let engine = SearchEngineDouble { query in
            guard query == "slow" else { return .one(titled: query) }
            await gate.wait()
            slowAnswered.store(true, ordering: .releasing)
            return .one(titled: query)
        }
        let screen = Screen(engine: engine)
        var states = screen.states.makeAsyncIterator()
        await screen.type("slow")
        screen.clock.advance(by: SearchViewModel.debounce)
        #expect(await states.next() == .searching("slow"))
        await screen.searched("fast", &states)
        gate.open()
        for _ in 0..<5_000 where !slowAnswered.load(ordering: .acquiring) { try? await Task.sleep(for: .milliseconds(1)) }
        screen.actions.continuation.finish()
        var later: [SearchState] = []
        while let state = await states.next() { later.append(state) }
        let answered = slowAnswered.load(ordering: .acquiring)
        #expect(answered, "the slow answer came, and was dropped")
        #expect(!later.contains { if case .results("slow", _, _) = $0 { true } else { false } }, "stale: \(later)")
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

    @Test func test_aQueryOverTheLimitIsShownAsAnInvalidField_withoutAsking() async {
        let engine = SearchEngineDouble { .one(titled: $0) }
        let screen = Screen(engine: engine)
        var states = screen.states.makeAsyncIterator()
        let long = String(repeating: "a", count: SearchRules.maxQueryLength + 1)
        await screen.type(long)
        screen.clock.advance(by: SearchViewModel.debounce)
        _ = await states.next()
        let tooLong = InvalidField("q", .tooLong(max: SearchRules.maxQueryLength, actual: SearchRules.maxQueryLength + 1, unit: .characters))
        #expect(await states.next() == .failed(long, .invalid(tooLong)))
        #expect(engine.asked.isEmpty)
    }

    @Test func test_clearingTheQueryShowsIdle_withoutSearching() async {
        let engine = SearchEngineDouble { .one(titled: $0) }
        let screen = Screen(engine: engine)
        var states = screen.states.makeAsyncIterator()
        await screen.type("   ")
        screen.clock.advance(by: SearchViewModel.debounce)
        #expect(await states.next() == .idle)
        #expect(engine.asked.isEmpty)
    }

    @Test func test_selectingAHitAndGoingBack_askTheCoordinator_once() async {
        let screen = Screen(engine: SearchEngineDouble { .one(titled: $0) })
        let reading = Task { for await _ in screen.states {} }
        defer { reading.cancel() }
        let uid = UUID()
        screen.actions.send(.select(uid))
        screen.actions.send(.back)
        screen.actions.send(.back)  // pressed twice: the screen below must stay
        #expect(await screen.navigator.waitFor(3) == [.detail(uid), .back], "one back per screen")
    }
}
