import Application
import Clocks
import ConcurrencyExtras
import Domain
import Foundation
import Testing

/// View models that use time (search's debounce, status's refresh), on a
/// TestClock and, for determinism, on the main serial executor.
///
/// That executor is a process-wide hook: while one of these runs, every task
/// in the process runs on the main thread. A suite elsewhere that blocks a
/// thread waiting for a task (the in-process worker tests poll a socket for
/// what a worker task sends) would then stall until it fails. So these run
/// in a test process of their own: `make test` runs them with POSTS_SERIAL_EXECUTOR_TESTS=1 and
/// `--filter ClockedViewModelTests`, after everything else.
@Suite("View models on a test clock", .serialized, .timeLimit(.minutes(1)),
       .enabled(if: ProcessInfo.processInfo.environment["POSTS_SERIAL_EXECUTOR_TESTS"] == "1",
                "needs a test process of its own: make test, or POSTS_SERIAL_EXECUTOR_TESTS=1 swift test --filter ClockedViewModelTests"))
struct ClockedViewModelTests {
    /// A view model on a test clock, its inputs, and its state stream.
    struct Screen {
        let clock = TestClock()
        let query = AsyncStream.makeStream(of: String.self)
        let refresh = Feed<Void>(), select = Feed<UUID>(), back = Feed<Void>()
        let watch = WatchDouble()
        let navigator = NavigatorRecorder()
        let output: SearchViewModel.Output

        init(search: SearchDouble) {
            let model = SearchViewModel(search: search, watch: watch, navigator: navigator, clock: AnyClock(clock))
            output = model.transform(input: .init(query: query.stream, refresh: refresh.stream, select: select.stream, back: back.stream))
        }

        func type(_ text: String) async {
            query.continuation.yield(text)
            await Task.megaYield()
        }

        /// Types `text`, lets the debounce pass, and reads the two states a
        /// search shows (searching, then its answer).
        func searched(_ text: String, _ states: inout AsyncStream<SearchState>.Iterator) async {
            await type(text)
            await clock.advance(by: SearchViewModel.debounce)
            _ = await states.next()
            _ = await states.next()
        }
    }

    @Test func test_whenTypingPauses_thenOnlyTheLastQueryIsSearched() async {
        await withMainSerialExecutor {
            let search = SearchDouble { .one(titled: $0) }
            let screen = Screen(search: search)
            var states = screen.output.state.makeAsyncIterator()
            await screen.type("s")
            await screen.clock.advance(by: .milliseconds(100))
            await screen.type("sw")
            await screen.clock.advance(by: .milliseconds(100))
            await screen.type("swi")
            await screen.clock.advance(by: .milliseconds(299))
            #expect(search.asked.isEmpty, "nothing is searched while typing continues")
            await screen.clock.advance(by: .milliseconds(1))
            #expect(await states.next() == .searching("swi"))
            guard case .results("swi", let items, total: 1)? = await states.next() else {
                Issue.record("expected results for 'swi'")
                return
            }
            #expect(items.map(\.title) == ["swi"])
            #expect(search.asked == ["swi"])
        }
    }

    @Test func test_whenTheSameQueryComesAgain_thenItIsNotSearchedTwice() async {
        await withMainSerialExecutor {
            let search = SearchDouble { .one(titled: $0) }
            let screen = Screen(search: search)
            var states = screen.output.state.makeAsyncIterator()
            await screen.searched("swift", &states)
            await screen.type("swift ")  // the same once trimmed
            await screen.clock.advance(by: .milliseconds(300))
            await screen.type("swiftly")
            await screen.clock.advance(by: .milliseconds(300))
            #expect(await states.next() == .searching("swiftly"))
            #expect(search.asked == ["swift", "swiftly"])
        }
    }

    @Test func test_refreshSearchesTheSameQueryAgain_atOnce() async {
        await withMainSerialExecutor {
            let search = SearchDouble { .one(titled: $0) }
            let screen = Screen(search: search)
            var states = screen.output.state.makeAsyncIterator()
            await screen.searched("zebra", &states)
            screen.refresh.send()  // back from a post that was just deleted, say
            #expect(await states.next() == .searching("zebra"))
            _ = await states.next()
            #expect(search.asked == ["zebra", "zebra"])
        }
    }

    @Test func test_whenPostsChangeElsewhere_theQueryRunsAgain_afterTheDebounce() async {
        await withMainSerialExecutor {
            let search = SearchDouble { .one(titled: $0) }
            let screen = Screen(search: search)
            var states = screen.output.state.makeAsyncIterator()
            await screen.searched("zebra", &states)
            screen.watch.continuation.yield(7)
            await Task.megaYield()
            await screen.clock.advance(by: .milliseconds(299))
            #expect(search.asked == ["zebra"], "the workers get time to apply the change")
            await screen.clock.advance(by: .milliseconds(1))
            #expect(await states.next() == .searching("zebra"))
            #expect(search.asked == ["zebra", "zebra"])
        }
    }

    @Test func test_aSlowStaleAnswerNeverReplacesANewerOne() async {
        await withMainSerialExecutor {
            let clock = TestClock()
            let search = SearchDouble { query in
                if query == "slow" { try? await clock.sleep(for: .seconds(5)) }
                return .one(titled: query)
            }
            let watch = WatchDouble()
            watch.continuation.finish()  // so that the state stream can end once typing ends
            let model = SearchViewModel(search: search, watch: watch, navigator: NavigatorRecorder(), clock: AnyClock(clock))
            let (query, typing) = AsyncStream.makeStream(of: String.self)
            let output = model.transform(input: .init(query: query, refresh: AsyncStream { $0.finish() }, select: AsyncStream { $0.finish() },
                                                      back: AsyncStream { $0.finish() }))
            var states = output.state.makeAsyncIterator()
            typing.yield("slow")
            await Task.megaYield()
            await clock.advance(by: .milliseconds(300))
            #expect(await states.next() == .searching("slow"))
            typing.yield("fast")
            await Task.megaYield()
            await clock.advance(by: .milliseconds(300))
            #expect(await states.next() == .searching("fast"))
            guard case .results("fast", _, _)? = await states.next() else {
                Issue.record("expected the newer results")
                return
            }
            await clock.advance(by: .seconds(10))
            typing.finish()
            var later: [SearchState] = []
            while let state = await states.next() { later.append(state) }
            #expect(!later.contains { if case .results("slow", _, _) = $0 { true } else { false } }, "stale: \(later)")
        }
    }

    @Test func test_whenSearchFails_thenTheErrorIsShown_andNothingMatchingShowsEmpty() async {
        await withMainSerialExecutor {
            let search = SearchDouble { query throws(PostsError) in
                if query == "down" { throw .unavailable("the gateway is not running") }
                return SearchResults(hits: [], total: 0, sequence: 3)
            }
            let screen = Screen(search: search)
            var states = screen.output.state.makeAsyncIterator()
            await screen.type("down")
            await screen.clock.advance(by: .milliseconds(300))
            #expect(await states.next() == .searching("down"))
            #expect(await states.next() == .failed("down", "the gateway is not running"))
            await screen.type("nothing")
            await screen.clock.advance(by: .milliseconds(300))
            #expect(await states.next() == .searching("nothing"))
            #expect(await states.next() == .empty("nothing"))
        }
    }

    @Test func test_clearingTheQueryShowsIdle_withoutSearching() async {
        await withMainSerialExecutor {
            let search = SearchDouble { .one(titled: $0) }
            let screen = Screen(search: search)
            var states = screen.output.state.makeAsyncIterator()
            await screen.type("   ")
            await screen.clock.advance(by: .milliseconds(300))
            #expect(await states.next() == .idle)
            #expect(search.asked.isEmpty)
        }
    }

    @Test func test_selectingAHitAndGoingBack_askTheCoordinator() async {
        await withMainSerialExecutor {
            let screen = Screen(search: SearchDouble { .one(titled: $0) })
            let reading = Task { for await _ in screen.output.state {} }
            let uid = UUID()
            screen.select.send(uid)
            #expect(await screen.navigator.waitFor(1) == [.detail(uid)])
            screen.back.send()
            screen.back.send()  // pressed twice: the screen below must stay
            #expect(await screen.navigator.waitFor(3) == [.detail(uid), .back], "one back per screen")
            reading.cancel()
        }
    }
}
