import Application
import Clocks
import ConcurrencyExtras
import Domain
import Testing

extension ClockedViewModelTests {
    @Test func test_statusIsShownAtOnce_thenRefreshedEveryTwoSecondsOnTheClock() async {
        await withMainSerialExecutor {
            let clock = TestClock()
            let status = StatusDouble()
            let back = Feed<Void>(), refresh = Feed<Void>()
            let model = StatusViewModel(status: status, navigator: NavigatorRecorder(), clock: AnyClock(clock))
            var states = model.transform(input: .init(refresh: refresh.stream, back: back.stream)).state.makeAsyncIterator()
            #expect(await states.next()?.isFetching == true)
            #expect(await states.next()?.status?.source == "call 1")
            await clock.advance(by: .milliseconds(1999))
            #expect(status.count == 1, "not refreshed before its time")
            await clock.advance(by: .milliseconds(1))
            _ = await states.next()
            #expect(await states.next()?.status?.source == "call 2")
            refresh.send()
            _ = await states.next()
            #expect(await states.next()?.status?.source == "call 3", "refreshed on demand")
        }
    }

    @Test func test_aFailedRefreshShowsTheError_andKeepsTheLastStatus_backAsksTheCoordinator() async {
        await withMainSerialExecutor {
            let clock = TestClock()
            let status = StatusDouble()
            let navigator = NavigatorRecorder()
            let back = Feed<Void>(), refresh = Feed<Void>()
            let model = StatusViewModel(status: status, navigator: navigator, clock: AnyClock(clock))
            var states = model.transform(input: .init(refresh: refresh.stream, back: back.stream)).state.makeAsyncIterator()
            _ = await states.next()
            _ = await states.next()
            status.failing(with: .unavailable("the gateway is not running"))
            await clock.advance(by: .seconds(2))
            _ = await states.next()
            let failed = await states.next()
            #expect(failed?.error == "the gateway is not running" && failed?.status?.source == "call 1")
            back.send()
            #expect(await navigator.waitFor(1) == [.back])
        }
    }
}
