@testable import Majordomo
import TestSupport
import TestTraits
import Testing
import ZeroMQ

@Suite("Broker routing", .ownThread, .timeLimit(.minutes(5)))
struct BrokerRoutingTests {
    @Test func test_whenAWorkerIsReady_thenARequestGoesToIt_andTheReplyReachesTheClient() async {
        var broker = Harness()
        broker.ready("w1", service: "echo")
        #expect(broker.request(from: "c1", service: "echo") == [requestMessage(to: "w1", from: "c1")])
        #expect(broker.reply(from: "w1", to: "c1") == [clientReply(to: "c1", service: "echo", "answer")])
    }

    @Test func test_whenRequestsNameDifferentServices_thenEachGoesToAWorkerOfThatService() async {
        var broker = Harness()
        broker.ready("w-echo", service: "echo")
        broker.ready("w-upper", service: "upper")
        #expect(broker.request(from: "c1", service: "upper") == [requestMessage(to: "w-upper", from: "c1")])
        #expect(broker.request(from: "c1", service: "echo") == [requestMessage(to: "w-echo", from: "c1")])
    }

    @Test func test_whenSeveralWorkersAreIdle_thenTheLeastRecentlyUsedTakesTheNextRequest() async {
        var broker = Harness()
        broker.ready("w1", service: "echo")
        broker.ready("w2", service: "echo")
        #expect(broker.request(from: "c", service: "echo") == [requestMessage(to: "w1", from: "c")])
        broker.reply(from: "w1", to: "c")
        // w2 has been idle longer than w1, which just finished.
        #expect(broker.request(from: "c", service: "echo") == [requestMessage(to: "w2", from: "c")])
        #expect(broker.request(from: "c", service: "echo") == [requestMessage(to: "w1", from: "c")])
    }

    @Test func test_whenNoWorkerIsReady_thenTheRequestWaits_andGoesToTheFirstWorkerThatArrives() async {
        var broker = Harness()
        #expect(broker.request(from: "c1", service: "echo").isEmpty)
        #expect(broker.ready("w1", service: "echo") == [requestMessage(to: "w1", from: "c1")])
    }

    @Test func test_whenNoWorkerArrivesWithinTheQueueWait_thenTheClientIsToldServiceUnavailable() async {
        var broker = Harness { $0.queueWait = .milliseconds(500) }
        broker.request(from: "c1", service: "nosuch")
        #expect(broker.advance(.milliseconds(400)).isEmpty)
        #expect(broker.advance(.milliseconds(200)) == [clientReply(to: "c1", service: "nosuch", "unavailable")])
        #expect(broker.core.outstanding["c1"] == nil)
    }

    @Test func test_whenAClientPassesItsOutstandingLimit_thenItIsToldBusy_andNothingIsDropped() async {
        var broker = Harness { $0.clientLimit = 2 }
        broker.ready("w1", service: "echo")
        broker.request(from: "c1", service: "echo", "1")
        broker.request(from: "c1", service: "echo", "2")
        #expect(broker.request(from: "c1", service: "echo", "3") == [clientReply(to: "c1", service: "echo", "busy:client")])
        // Another client is not affected.
        #expect(broker.request(from: "c2", service: "echo", "4").isEmpty)
        #expect(broker.core.services["echo"]?.queue.count == 2)
    }

    @Test func test_whenAServiceQueueIsFull_thenNewRequestsAreToldBusy() async {
        var broker = Harness { $0.queueLimit = 1 }
        broker.request(from: "c1", service: "echo")
        #expect(broker.request(from: "c2", service: "echo") == [clientReply(to: "c2", service: "echo", "busy:queue")])
    }

    @Test func test_whenAReplyCompletesARequest_thenTheClientMaySendAgainUnderItsLimit() async {
        var broker = Harness { $0.clientLimit = 1 }
        broker.ready("w1", service: "echo")
        broker.request(from: "c1", service: "echo")
        broker.reply(from: "w1", to: "c1")
        #expect(broker.request(from: "c1", service: "echo") == [requestMessage(to: "w1", from: "c1")])
    }

    @Test func test_whenTheBrokerServesRequests_thenTheSnapshotCountsThemWithLatencies() async {
        var broker = Harness()
        broker.ready("w1", service: "echo")
        broker.request(from: "c1", service: "echo")
        broker.now = broker.now + .milliseconds(3)
        broker.reply(from: "w1", to: "c1")
        let snapshot = broker.core.snapshot(now: broker.now)
        #expect(snapshot.services.map(\.name) == ["echo"])
        #expect(snapshot.services[0].replies == 1)
        #expect(snapshot.services[0].latency?.p50 == .milliseconds(3))
        #expect(snapshot.workers.map(\.service) == ["echo"])
        #expect(snapshot.totals.requests == 1 && snapshot.totals.replies == 1)
    }
}
