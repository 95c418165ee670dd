@testable import Majordomo
import TestSupport
import TestTraits
import Testing
import ZeroMQ

/// A request's time budget (`BrokerReplies.budget`): when it runs out the
/// client is answered `timeout`, queued or with a worker, and a spent
/// request is never handed to a worker.
@Suite("Broker deadlines", .ownThread, .timeLimit(.minutes(5)))
struct BrokerDeadlineTests {
    @Test func test_aRequestWhoseBudgetIsSpent_isAnsweredAtOnce_andNeverQueued() async {
        var broker = Harness()
        broker.ready("w1", service: "echo")
        #expect(broker.request(from: "c", service: "echo", "budget:0") == [clientReply(to: "c", service: "echo", "timeout:queue")])
        #expect(broker.core.outstanding["c"] == nil)
    }

    @Test func test_aWorkerIsHandedWhatIsLeftOfTheBudget() async {
        var broker = Harness()
        broker.ready("w1", service: "echo")
        broker.request(from: "c1", service: "echo", "budget:5000")
        broker.request(from: "c2", service: "echo", "budget:1000")
        broker.advance(.milliseconds(400))
        #expect(
            broker.reply(from: "w1", to: "c1") == [
                requestMessage(to: "w1", from: "c2", "budget:600"),
                clientReply(to: "c1", service: "echo", "answer"),
            ])
    }

    @Test func test_queuedRequestsWhoseClientsGaveUp_areAnsweredTimeout_andNeverReachAWorker() async {
        var broker = Harness()
        broker.ready("slow", service: "echo")
        broker.request(from: "c0", service: "echo", "first")
        for client in ["c1", "c2", "c3"] { broker.request(from: Frame(client), service: "echo", "budget:300") }
        let answered = broker.advance(.milliseconds(300))
        #expect(answered == ["c1", "c2", "c3"].map { clientReply(to: Frame($0), service: "echo", "timeout:queue") })
        #expect(broker.reply(from: "slow", to: "c0") == [clientReply(to: "c0", service: "echo", "answer")], "nothing more for the worker")
        #expect(broker.core.outstanding.isEmpty)
    }

    @Test func test_aBudgetThatRunsOutWhileTheServiceHasNoWorkerAtAll_isAnsweredNoWorker_notTimeout() async {
        var broker = Harness()
        broker.request(from: "c1", service: "echo", "budget:300")
        let answered = broker.advance(.milliseconds(300))
        #expect(answered == [clientReply(to: "c1", service: "echo", "unavailable")], "the client learns what to start")
        #expect(broker.core.outstanding.isEmpty)
    }

    @Test func test_aBudgetThatRunsOutWithAWorker_answersTheClient_andTheLateReplyIsDropped() async {
        var broker = Harness()
        broker.ready("w1", service: "echo")
        broker.request(from: "c1", service: "echo", "budget:500")
        broker.request(from: "c2", service: "echo", "next")
        #expect(broker.advance(.milliseconds(500)) == [clientReply(to: "c1", service: "echo", "timeout:worker")])
        #expect(broker.core.outstanding["c1"] == nil)
        #expect(
            broker.reply(from: "w1", to: "c1", "late") == [requestMessage(to: "w1", from: "c2", "next")],
            "the worker is free again, and its late reply goes nowhere")
        #expect(broker.core.totals.lateReplies == 1)
        #expect(broker.core.totals.timedOutWithWorker == 1)
    }

    @Test func test_aRequestWhoseWorkerDiesAfterItsClientWasAnswered_isNotHandedOn() async {
        var broker = Harness()
        broker.ready("w1", service: "echo")
        broker.request(from: "c1", service: "echo", "budget:500")
        broker.advance(.milliseconds(500))
        broker.ready("w2", service: "echo")
        #expect(broker.receive(from: "w1", MDP.disconnect).isEmpty)
        #expect(broker.core.totals.requeued == 0)
    }

    @Test func test_withoutABudget_theQueueWaitStillApplies() async {
        var broker = Harness()
        broker.request(from: "c", service: "echo")
        #expect(broker.advance(.seconds(2)) == [clientReply(to: "c", service: "echo", "unavailable")])
    }
}
