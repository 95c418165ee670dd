@testable import Majordomo
import SystemSupport
import TestSupport
import TestTraits
import Testing
import ZeroMQ

/// What a peer may make the broker remember, and what it may name: bounded
/// and checked, so throwaway or hostile names cannot grow it or reach a
/// terminal.
@Suite("Broker bounds and names", .ownThread, .timeLimit(.minutes(5)))
struct BrokerBoundsTests {
    static let badNames: [(String, Frame)] = [
        ("empty", Frame()),
        ("not UTF-8", Frame([0xFF, 0xFE])),
        ("a newline that would forge a log line", Frame("echo\n2026-01-01 critical gateway: forged")),
        ("an escape sequence that clears a screen", Frame("\u{1B}[2Jecho")),
        ("a space", Frame("my service")),
        ("129 characters", Frame(String(repeating: "a", count: 129))),
    ]

    @Test(arguments: badNames)
    func test_aReadyWithANameOutsideThePrintableSet_getsDisconnect(_ what: String, _ name: Frame) async {
        var broker = Harness()
        #expect(broker.receive(from: "w1", MDP.ready(service: name)) == [disconnectMessage(to: "w1")], "\(what)")
        #expect(broker.core.workers.isEmpty && broker.core.services.isEmpty)
    }

    @Test(arguments: badNames)
    func test_aRequestForANameOutsideThePrintableSet_isAnswered_notDropped(_ what: String, _ name: Frame) async {
        var broker = Harness()
        let sent = broker.receive(from: "c1", MDP.clientRequest(service: name, body: ["x"]))
        #expect(sent.count == 1 && sent.first?.first == "c1" && sent.first?.last == "bad name", "\(what): \(sent)")
        #expect(broker.core.services.isEmpty)
    }

    @Test func test_theLongestAndEveryAllowedCharacter_areAccepted() async {
        var broker = Harness()
        let name = String(repeating: "Az09.-_", count: 18).prefix(128)
        #expect(broker.ready("w1", service: String(name)).isEmpty)
        #expect(broker.core.services[String(name)]?.workers == 1)
    }

    @Test func test_aServiceWithNoWorkerAndNothingWaiting_isForgottenAfterTheQueueWait() async {
        var broker = Harness()  // queue wait 2 s, heartbeat 1 s
        broker.ready("w1", service: "throwaway")
        broker.receive(from: "w1", MDP.disconnect)
        #expect(broker.core.services["throwaway"] != nil, "kept a while, for status")
        broker.advance(.seconds(1))
        broker.advance(.milliseconds(900))
        #expect(broker.core.services["throwaway"] != nil, "not before the queue wait")
        broker.advance(.milliseconds(1200))
        #expect(broker.core.services["throwaway"] == nil)
    }

    @Test func test_aServiceThatGetsAWorkerAgain_isKept() async {
        var broker = Harness()
        broker.ready("w1", service: "posts")
        broker.receive(from: "w1", MDP.disconnect)
        broker.advance(.seconds(1))  // empty since now
        broker.ready("w2", service: "posts")
        broker.advance(.milliseconds(1500))
        #expect(broker.core.services["posts"]?.workers == 1)
        broker.receive(from: "w2", MDP.disconnect)
        broker.advance(.seconds(1))
        #expect(broker.core.services["posts"] != nil, "its queue wait starts again when it is empty again")
    }

    @Test func test_pastTheServiceLimit_aReadyForANewServiceIsRefused_andARequestForOneAnswered() async {
        var broker = Harness { $0.serviceLimit = 3 }
        for index in 0..<3 { broker.ready(Frame("w\(index)"), service: "s\(index)") }
        #expect(broker.ready("w9", service: "one-too-many") == [disconnectMessage(to: "w9")])
        #expect(broker.core.services.count == 3)
        let answer = broker.request(from: "c1", service: "another")
        #expect(answer == [clientReply(to: "c1", service: "another", "limit:3")])
        // Known services still work.
        #expect(broker.ready("w10", service: "s1").isEmpty)
        #expect(broker.core.services["s1"]?.workers == 2)
    }

    @Test func test_throwawayNames_leaveNothingBehind() async {
        var broker = Harness()
        for index in 0..<500 {
            broker.ready(Frame("w\(index)"), service: "name-\(index)")
            broker.receive(from: Frame("w\(index)"), MDP.disconnect)
        }
        broker.advance(.seconds(1))
        broker.advance(.seconds(1))
        broker.advance(.seconds(1))
        #expect(broker.core.services.isEmpty && broker.core.workers.isEmpty)
    }
}

@Suite("Log limiter", .ownThread, .timeLimit(.minutes(5)))
struct LogLimiterTests {
    @Test func test_aFloodIsOneLineASecond_withTheCountLeftOut() async {
        let limiter = LogLimiter(interval: .seconds(1))
        let start = ContinuousClock.now
        #expect(limiter.admit("malformed", now: start) == (true, 0))
        for step in 1...99 {
            #expect(limiter.admit("malformed", now: start + .milliseconds(step * 5)).log == false)
        }
        #expect(limiter.admit("other", now: start + .milliseconds(600)).log, "each reason has its own budget")
        let next = limiter.admit("malformed", now: start + .seconds(1))
        #expect(next.log && next.suppressed == 99)
    }

    /// A line written late (its thread ran late between the admission and
    /// the stamp) starts the next second when it was written: the lines as
    /// the log shows them are a second apart.
    @Test func test_theSecondCountsFromWhenTheLineWasWritten() async {
        let limiter = LogLimiter(interval: .seconds(1))
        let start = ContinuousClock.now
        var now = start
        var written: [ContinuousClock.Instant] = []
        let clock = { now }
        limiter.log("malformed", clock: clock) { _ in
            now = start + .milliseconds(30)
            written.append(now)
        }
        now = start + .seconds(1)
        limiter.log("malformed", clock: clock) { _ in written.append(now) }
        #expect(written.count == 1, "a second after the admission, but not after the line was written")
        now = start + .milliseconds(1030)
        limiter.log("malformed", clock: clock) { suppressed in
            #expect(suppressed == 1)
            written.append(now)
        }
        #expect(written == [start + .milliseconds(30), start + .milliseconds(1030)])
    }

    @Test func test_aFloodThatStops_isStillSummedUp() async {
        let limiter = LogLimiter(interval: .seconds(1))
        let start = ContinuousClock.now
        _ = limiter.admit("malformed", now: start)
        for _ in 0..<7 { _ = limiter.admit("malformed", now: start + .milliseconds(10)) }
        #expect(limiter.overdue(now: start + .milliseconds(500)).isEmpty)
        let due = limiter.overdue(now: start + .seconds(2))
        #expect(due.count == 1 && due.first?.reason == "malformed" && due.first?.suppressed == 7)
        #expect(limiter.overdue(now: start + .seconds(3)).isEmpty, "summed up once")
    }

    @Test func test_aFloodStillGoingOn_isNotSummedUpEarly_soNoCountIsSplitOff() async {
        let limiter = LogLimiter(interval: .seconds(1))
        let start = ContinuousClock.now
        _ = limiter.admit("malformed", now: start)
        for step in 1...10 { _ = limiter.admit("malformed", now: start + .milliseconds(step * 90)) }
        // A second since the last line, but the flood came up 150 ms ago.
        #expect(limiter.overdue(now: start + .milliseconds(1050)).isEmpty)
        let next = limiter.admit("malformed", now: start + .milliseconds(1100))
        #expect(next.log && next.suppressed == 10, "the line that is admitted carries the whole count")
    }
}
