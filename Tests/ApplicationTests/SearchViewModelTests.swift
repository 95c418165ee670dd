import Application
import Clocks
import Domain
import Foundation
import TestSupport
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

    @Test func test_aSlowStaleAnswerNeverReplacesANewerOne() async {
        let gate = Gate()
        let slowAnswered = Waitable(false)
        let engine = SearchEngineDouble { query in
            guard query == "slow" else { return .one(titled: query) }
            await gate.wait()
            slowAnswered.update { $0 = true }
            return .one(titled: query)
        }
        let screen = Screen(engine: engine)
        var states = screen.states.makeAsyncIterator()
        await screen.type("slow")
        screen.clock.advance(by: SearchViewModel.debounce)
        #expect(await states.next() == .searching("slow"))
        await screen.searched("fast", &states)
        gate.open()
        await slowAnswered.wait { $0 }
        screen.actions.continuation.finish()
        var later: [SearchState] = []
        while let state = await states.next() { later.append(state) }
        #expect(!later.contains { if case .results("slow", _, _) = $0 { true } else { false } }, "stale: \(later)")
    }

    @Test func test_aQueryOverTheLimitIsShownAsAnInvalidField_withoutAskingTheEngine() async {
        let screen = Screen(engine: .unexpected())
        var states = screen.states.makeAsyncIterator()
        let long = String(repeating: "a", count: SearchRules.maxQueryLength + 1)
        await screen.type(long)
        screen.clock.advance(by: SearchViewModel.debounce)
        #expect(await states.next() == .searching(long))
        let tooLong = InvalidField("q", .tooLong(max: SearchRules.maxQueryLength, actual: SearchRules.maxQueryLength + 1, unit: .characters))
        #expect(await states.next() == .failed(long, .invalid(tooLong)))
    }

    @Test func test_clearingTheQueryShowsIdle_withoutSearching() async {
        let screen = Screen(engine: .unexpected())
        var states = screen.states.makeAsyncIterator()
        await screen.type("   ")
        screen.clock.advance(by: SearchViewModel.debounce)
        #expect(await states.next() == .idle)
    }

    @Test func test_selectingAHitThenBackTwice_asksTheCoordinatorForTheHitAndOneBack_andTheScreenEnds() async {
        let screen = Screen(engine: .unexpected())
        let uid = UUID()
        screen.actions.send(.select(uid))
        screen.actions.send(.back)
        screen.actions.send(.back)  // the second reaches the screen below, never this one
        for await _ in screen.states {}
        #expect(screen.navigator.recorded == [.detail(uid), .back])
    }
}
