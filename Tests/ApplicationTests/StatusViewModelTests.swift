import Application
import Clocks
import Domain
import Testing

/// Status, refreshed on a manual clock (see SearchViewModelTests).
@Suite("Status view model", .timeLimit(.minutes(1)))
struct StatusViewModelTests {
    struct Screen {
        let clock = ManualClock()
        let source = StatusSourceDouble()
        let actions = Feed<StatusViewModel.Action>()
        let navigator = NavigatorRecorder()
        let states: AsyncStream<StatusState>

        init() {
            let model = StatusViewModel(status: StatusInteractor(source: source), navigator: navigator, clock: AnyClock(clock))
            states = model.transform(input: .init(actions: actions.stream)).state
        }
    }

    @Test func test_statusIsShownAtOnce_thenRefreshedEveryTwoSecondsOnTheClock_andOnDemand() async {
        let screen = Screen()
        var states = screen.states.makeAsyncIterator()
        #expect(await states.next()?.isFetching == true)
        #expect(await states.next()?.status?.source == "call 1")
        await screen.clock.waitForSleeper(until: StatusViewModel.interval)
        screen.clock.advance(by: .milliseconds(1999))
        #expect(screen.source.count == 1, "not refreshed before its time")
        screen.clock.advance(by: .milliseconds(1))
        _ = await states.next()
        #expect(await states.next()?.status?.source == "call 2")
        screen.actions.send(.refresh)
        _ = await states.next()
        #expect(await states.next()?.status?.source == "call 3", "refreshed on demand")
    }

    @Test func test_aFailedRefreshShowsTheOutage_andKeepsTheLastStatus_backAsksTheCoordinator() async {
        let screen = Screen()
        var states = screen.states.makeAsyncIterator()
        _ = await states.next()
        _ = await states.next()
        screen.source.failing(with: .unavailable(.noAnswer(endpoint: "ipc://g", seconds: 2)))
        await screen.clock.waitForSleeper(until: StatusViewModel.interval)
        screen.clock.advance(by: StatusViewModel.interval)
        _ = await states.next()
        let failed = await states.next()
        #expect(failed?.problem == .outage(.noAnswer(endpoint: "ipc://g", seconds: 2)) && failed?.status?.source == "call 1")
        screen.actions.send(.back)
        screen.actions.send(.back)
        #expect(await screen.navigator.waitFor(2) == [.back], "one back per screen")
    }
}
