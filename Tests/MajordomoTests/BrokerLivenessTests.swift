@testable import Majordomo
import TestSupport
import TestTraits
import Testing
import ZeroMQ

@Suite("Broker heartbeats and expiry", .ownThread, .timeLimit(.minutes(5)))
struct BrokerLivenessTests {
    @Test func test_everyHeartbeatInterval_thenIdleAndBusyWorkersBothGetAHeartbeat() async {
        var broker = Harness()
        broker.ready("idle", service: "echo")
        broker.ready("busy", service: "slow")
        broker.request(from: "c", service: "slow")
        let sent = broker.advance(.seconds(1))
        #expect(Set(sent.map { $0[0] }) == ["idle", "busy"])
        #expect(sent.allSatisfy { Array($0.dropFirst()) == MDP.heartbeat })
    }

    @Test func test_whenAWorkerStaysSilentPastItsLiveness_thenItIsExpired() async {
        var broker = Harness()
        broker.ready("w1", service: "echo")
        broker.advance(.milliseconds(2900))
        #expect(broker.core.workers["w1"] != nil)
        broker.advance(.milliseconds(200))
        #expect(broker.core.workers["w1"] == nil)
        #expect(broker.core.snapshot(now: broker.now).totals.workersExpired == 1)
    }

    @Test func test_whenAWorkerKeepsSendingHeartbeats_thenItIsNeverExpired() async {
        var broker = Harness()
        broker.ready("w1", service: "echo")
        for _ in 0..<10 {
            broker.advance(.seconds(1))
            broker.receive(from: "w1", MDP.heartbeat)
        }
        #expect(broker.core.workers["w1"] != nil)
    }

    @Test func test_whenABusyWorkerIsExpired_thenItsRequestGoesToAnotherWorker() async {
        var broker = Harness()
        broker.ready("w1", service: "echo")
        broker.request(from: "c1", service: "echo", "job")
        broker.ready("w2", service: "echo")
        broker.advance(.seconds(2))
        broker.receive(from: "w2", MDP.heartbeat)
        let sent = broker.advance(.milliseconds(1100))
        #expect(sent.contains(requestMessage(to: "w2", from: "c1", "job")))
        #expect(broker.reply(from: "w2", to: "c1", "done") == [clientReply(to: "c1", service: "echo", "done")])
    }

    @Test func test_whenAWorkerSaysDisconnect_thenItsRequestGoesToAnotherWorker() async {
        var broker = Harness()
        broker.ready("w1", service: "echo")
        broker.request(from: "c1", service: "echo")
        broker.ready("w2", service: "echo")
        #expect(broker.receive(from: "w1", MDP.disconnect) == [requestMessage(to: "w2", from: "c1")])
    }

    @Test func test_whenAnUnknownWorkerSendsAHeartbeat_thenItIsToldToDisconnect_soItRegistersAgain() async {
        var broker = Harness()
        #expect(broker.receive(from: "old", MDP.heartbeat) == [disconnectMessage(to: "old")])
    }

    @Test func test_whenTheBrokerStops_thenEveryWorkerIsToldToDisconnect() async {
        var broker = Harness()
        broker.ready("w1", service: "a")
        broker.ready("w2", service: "b")
        broker.core.disconnectAll()
        #expect(Set(broker.core.takeOutbox()) == [disconnectMessage(to: "w1"), disconnectMessage(to: "w2")])
    }

    @Test func test_whenAServiceHasNoWorkersAndNoRequests_thenItIsForgotten() async {
        var broker = Harness { $0.queueWait = .milliseconds(100) }
        broker.request(from: "c", service: "typo")
        broker.advance(.milliseconds(200))
        #expect(broker.core.services["typo"] == nil)
    }
}
