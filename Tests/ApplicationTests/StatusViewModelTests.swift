import Application
import Clocks
import Domain
import TestSupport
import Testing

/// Status, refreshed on a manual clock (see SearchViewModelTests).
@Suite("Status view model", .timeLimit(.minutes(1)))
struct StatusViewModelTests {
    struct Screen {
        let clock = ManualClock()
        let source: StatusSourceDouble
        let actions = Feed<StatusViewModel.Action>()
        let navigator = NavigatorRecorder()
        let states: AsyncStream<StatusState>

        init(source: StatusSourceDouble = StatusSourceDouble()) {
            self.source = source
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

    @Test func test_whenTheSourceAnswers_thenServicesProcessesAndSearchLagAreShown_inAStableOrder() async {
        let status = SystemStatus(
            source: "", uptimeSeconds: 12,
            services: [
                .init(name: "search", processes: 1, sessions: 4, queued: 0, requests: 9, refused: 1),
                .init(name: "posts", processes: 2, sessions: 8, queued: 3, requests: 40, refused: 0, p50Milliseconds: 0.4),
            ],
            processes: [
                .init(service: "search", pid: 30, name: "w3", sessions: 4, busy: 0, handled: 9, silentMilliseconds: 120),
                .init(service: "posts", pid: 21, name: "w2", sessions: 4, busy: 1, handled: 20, silentMilliseconds: 80),
                .init(service: "posts", pid: 20, name: "w1", sessions: 4, busy: 0, handled: 20, silentMilliseconds: 90),
            ],
            posts: 40, searchIndexes: [.init(pid: 31, documents: 38, applied: 38, head: 40), .init(pid: 30, documents: 40, applied: 40, head: 40)])
        let screen = Screen(source: StatusSourceDouble(status))
        var states = screen.states.makeAsyncIterator()
        _ = await states.next()
        let shown = await states.next()?.status
        #expect(shown?.services.map(\.name) == ["posts", "search"])
        #expect(shown?.services.map(\.refused) == [0, 1])
        #expect(shown?.processes.map(\.pid) == [20, 21, 30])
        #expect(shown?.searchIndexes.map(\.pid) == [30, 31])
        #expect(shown?.searchIndexes.map(\.lag) == [0, 2], "the index two changes behind says so")
        #expect(shown?.posts == 40 && shown?.uptimeSeconds == 12)
    }

    @Test func test_aFailedRefreshShowsTheOutage_andKeepsTheLastStatus() async {
        let screen = Screen()
        var states = screen.states.makeAsyncIterator()
        _ = await states.next()
        _ = await states.next()
        screen.source.failing(with: .unavailable(.noAnswer(endpoint: "ipc://g", seconds: 2)))
        await screen.clock.waitForSleeper(until: StatusViewModel.interval)
        screen.clock.advance(by: StatusViewModel.interval)
        _ = await states.next()
        let failed = await states.next()
        #expect(failed?.problem == .outage(.noAnswer(endpoint: "ipc://g", seconds: 2)))
        #expect(failed?.status?.source == "call 1", "the last status stays shown")
    }

    @Test func test_backPressedTwice_asksTheCoordinatorOnce_andTheScreenEnds() async {
        let screen = Screen()
        screen.actions.send(.back)
        screen.actions.send(.back)  // the second reaches the screen below, never this one
        for await _ in screen.states {}
        #expect(screen.navigator.recorded == [.back])
    }
}
