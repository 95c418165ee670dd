@testable import Majordomo
import TestSupport
import TestTraits
import Testing
import ZeroMQ

@Suite("Broker when workers fail or it stops", .ownThread, .timeLimit(.minutes(5)))
struct BrokerFailureTests {
    @Test func test_whenTwoWorkersExpireTogether_thenTheRequestSkipsTheDeadOne_andIsRequeuedOnce() async {
        var broker = Harness()
        broker.ready("busy", service: "echo")
        broker.request(from: "c", service: "echo")
        broker.ready("idle", service: "echo")
        broker.advance(.seconds(2))
        broker.ready("alive", service: "echo")
        let sent = broker.advance(.milliseconds(1100))
        #expect(sent.contains(requestMessage(to: "alive", from: "c")))
        #expect(!sent.contains(requestMessage(to: "idle", from: "c")))
        #expect(broker.core.totals.requeued == 1)
    }

    @Test func test_whenARequestOutlivesMaxAttemptsWorkers_thenTheClientIsToldItFailed() async {
        var broker = Harness { $0.maxAttempts = 2 }
        broker.ready("w1", service: "echo")
        broker.request(from: "c", service: "echo")
        #expect(broker.ready("w2", service: "echo").isEmpty)
        #expect(broker.receive(from: "w1", MDP.disconnect) == [requestMessage(to: "w2", from: "c")])
        #expect(broker.receive(from: "w2", MDP.disconnect) == [clientReply(to: "c", service: "echo", "failed")])
        #expect(broker.core.outstanding["c"] == nil)
    }

    @Test func test_whenAWorkerCannotBeReached_thenItsRequestGoesToAnotherWorkerAtOnce() async {
        var broker = Harness()
        broker.ready("gone", service: "echo")
        broker.ready("w2", service: "echo")
        broker.request(from: "c", service: "echo")
        broker.core.peerUnreachable("gone", now: broker.now)
        #expect(broker.core.takeOutbox() == [requestMessage(to: "w2", from: "c")])
        #expect(broker.core.workers["gone"] == nil)
    }

    @Test func test_whenOneSessionOfAProcessIsFoundDead_itsOtherSessionsAreHandedNothing_untilHeardFromAgain() async {
        var broker = Harness()
        broker.ready("41.a1.1", service: "echo")
        broker.request(from: "c", service: "echo")
        broker.ready("41.a1.2", service: "echo")
        broker.ready("41.a1.3", service: "echo")
        broker.ready("57.b2.1", service: "echo")
        broker.core.peerUnreachable("41.a1.1", now: broker.now)
        #expect(broker.core.takeOutbox() == [requestMessage(to: "57.b2.1", from: "c")], "to the live process, not to a dead one's other sessions")
        // The next request waits rather than go to 41's sessions...
        #expect(broker.request(from: "d", service: "echo").isEmpty)
        // ...until one of them is heard from: the process lives after all.
        _ = broker.advance(.milliseconds(10))
        #expect(broker.receive(from: "41.a1.3", MDP.heartbeat) == [requestMessage(to: "41.a1.3", from: "d")])
        #expect(broker.core.workers.count == 3, "sessions found dead alone are forgotten")
    }

    @Test func test_whenASessionExpires_theRequestItHeldSkipsTheOtherSessionsOfItsProcess() async {
        var broker = Harness()
        broker.ready("41.a1.1", service: "echo")
        broker.request(from: "c", service: "echo")
        broker.advance(.seconds(2))
        broker.ready("41.a1.2", service: "echo")
        broker.ready("57.b2.1", service: "echo")
        let sent = broker.advance(.milliseconds(1100))
        #expect(sent.contains(requestMessage(to: "57.b2.1", from: "c")))
        #expect(!sent.contains(requestMessage(to: "41.a1.2", from: "c")))
    }

    @Test func test_aRequestFailsOnlyOnceMaxAttemptsProcesses_notSessions_haveDiedHoldingIt() async {
        var broker = Harness { $0.maxAttempts = 2 }
        broker.ready("41.a1.1", service: "echo")
        broker.request(from: "c", service: "echo")
        #expect(broker.ready("41.a1.2", service: "echo").isEmpty)
        // The same process's second session: a DISCONNECT is a session's own
        // leaving, and one process counts once however many of its sessions had it.
        #expect(broker.receive(from: "41.a1.1", MDP.disconnect) == [requestMessage(to: "41.a1.2", from: "c")])
        #expect(broker.ready("57.b2.1", service: "echo").isEmpty)
        #expect(broker.receive(from: "41.a1.2", MDP.disconnect) == [requestMessage(to: "57.b2.1", from: "c")])
        #expect(broker.receive(from: "57.b2.1", MDP.disconnect) == [clientReply(to: "c", service: "echo", "failed")])
    }

    @Test func test_whenAClientCannotBeReached_thenNothingChangesForWorkers() async {
        var broker = Harness()
        broker.ready("w1", service: "echo")
        broker.core.peerUnreachable("some-client", now: broker.now)
        #expect(broker.core.workers.count == 1)
    }

    @Test func test_whenDraining_thenWaitingAndNewRequestsAreRefused_butRepliesInProgressArrive() async {
        var broker = Harness()
        broker.ready("w1", service: "echo")
        broker.request(from: "c1", service: "echo", "in progress")
        broker.request(from: "c2", service: "echo", "waiting")
        broker.core.beginDrain()
        #expect(broker.core.takeOutbox() == [clientReply(to: "c2", service: "echo", "stopping")])
        #expect(!broker.core.isDrained)
        #expect(broker.request(from: "c3", service: "echo") == [clientReply(to: "c3", service: "echo", "stopping")])
        #expect(broker.reply(from: "w1", to: "c1", "done") == [clientReply(to: "c1", service: "echo", "done")])
        #expect(broker.core.isDrained)
    }

    @Test func test_whenTheGraceEndsWithARequestStillWithAWorker_thenItsClientIsToldItWasInterrupted_notThatItWasNotTaken() async {
        var broker = Harness()
        broker.ready("w1", service: "echo")
        broker.ready("w2", service: "echo")
        broker.request(from: "c1", service: "echo", "slow")
        broker.core.beginDrain()
        _ = broker.core.takeOutbox()
        broker.core.disconnectAll()
        let sent = broker.core.takeOutbox()
        #expect(sent.contains(clientReply(to: "c1", service: "echo", "interrupted")), "answered, not left waiting: \(sent)")
        #expect(Set(sent.filter { $0.count == 4 }) == [disconnectMessage(to: "w1"), disconnectMessage(to: "w2")])
    }

    @Test func test_whenAServiceLosesItsWorkers_thenItsCountersAreKeptForIntrospection() async {
        var broker = Harness()
        broker.ready("w1", service: "echo")
        broker.request(from: "c", service: "echo")
        broker.reply(from: "w1", to: "c")
        broker.receive(from: "w1", MDP.disconnect)
        broker.advance(.seconds(1))
        let echo = broker.core.snapshot(now: broker.now).services.first { $0.name == "echo" }
        #expect(echo?.workers == 0)
        #expect(echo?.replies == 1)
    }

    @Test func test_refusedRequestsAreCountedAsRequestsOfTheirService() async {
        var broker = Harness { $0.clientLimit = 1 }
        broker.ready("w1", service: "echo")
        broker.request(from: "c", service: "echo")
        broker.request(from: "c", service: "echo")
        let echo = broker.core.snapshot(now: broker.now).services.first { $0.name == "echo" }
        #expect(echo?.requests == 2)
        #expect(echo?.refused == 1)
    }

    @Test func test_ticksAreNeverCloserThanTheGranularity() async {
        var broker = Harness { $0.queueWait = .milliseconds(1) }
        broker.request(from: "c", service: "nosuch")
        broker.advance(.milliseconds(2))
        #expect(broker.core.nextDeadline >= broker.now + BrokerCore.tickGranularity)
    }
}
