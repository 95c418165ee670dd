import Application
import Clocks
import ConcurrencyExtras
import Domain
import Foundation
import Testing

@Suite("Search view model", .serialized)
struct SearchViewModelTests {
    /// A view model on a test clock, its inputs, and its state stream.
    struct Screen {
        let clock = TestClock()
        let query = AsyncStream.makeStream(of: String.self)
        let selection = AsyncStream.makeStream(of: UUID.self)
        let back = AsyncStream.makeStream(of: Void.self)
        let output: SearchViewModel.Output

        init(search: SearchDouble, navigator: NavigatorRecorder = NavigatorRecorder()) {
            let model = SearchViewModel(search: search, navigator: navigator, clock: AnyClock(clock))
            output = model.transform(input: .init(query: query.stream, selection: selection.stream, back: back.stream))
        }

        func type(_ text: String) async {
            query.continuation.yield(text)
            await Task.megaYield()
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
            await screen.type("swift")
            await screen.clock.advance(by: .milliseconds(300))
            _ = await states.next()
            _ = await states.next()
            await screen.type("swift ")  // the same once trimmed
            await screen.clock.advance(by: .milliseconds(300))
            await screen.type("swiftly")
            await screen.clock.advance(by: .milliseconds(300))
            #expect(await states.next() == .searching("swiftly"))
            #expect(search.asked == ["swift", "swiftly"])
        }
    }

    @Test func test_aSlowStaleAnswerNeverReplacesANewerOne() async {
        await withMainSerialExecutor {
            let clock = TestClock()
            let search = SearchDouble { query in
                if query == "slow" { try? await clock.sleep(for: .seconds(5)) }
                return .one(titled: query)
            }
            let model = SearchViewModel(search: search, navigator: NavigatorRecorder(), clock: AnyClock(clock))
            let (query, typing) = AsyncStream.makeStream(of: String.self)
            let output = model.transform(input: .init(query: query, selection: AsyncStream { $0.finish() }, back: AsyncStream { $0.finish() }))
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
            let navigator = NavigatorRecorder()
            let screen = Screen(search: SearchDouble { .one(titled: $0) }, navigator: navigator)
            let uid = UUID()
            screen.selection.continuation.yield(uid)
            screen.back.continuation.yield(())
            await Task.megaYield()
            #expect(navigator.recorded == [.post(uid), .back])
            screen.output.navigation.cancel()
        }
    }
}
