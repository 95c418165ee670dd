@testable import Majordomo
import TestSupport
import TestTraits
import Testing
import ZeroMQ

/// Sessions that announce a credit (docs/PROTOCOL.md, "Credit"): the broker
/// hands one as many requests at once as it says and never more, tells its
/// replies apart by the tag in the address, and treats each request in its
/// hands as 7/MDP treats a worker's one: requeued when it dies, answered
/// `timeout` when its budget runs out.
@Suite("Broker and sessions with credit", .ownThread, .timeLimit(.minutes(1)))
struct BrokerCreditTests {
    /// The REQUEST a session with credit gets: the client's address tagged.
    private func tagged(to worker: Frame, from client: Frame, tag: UInt32, _ body: Frame = "hello") -> [Frame] {
        [worker, "", MDP.workerHeader, MDP.Command.request.frame, MDP.tagged(client, tag), ""] + [body]
    }

    private func ready(_ broker: inout Harness, _ worker: Frame, credit: Int) {
        broker.receive(from: worker, MDP.ready(service: "echo", credit: credit))
    }

    /// The sessions `count` requests of client "c", sent in one turn, went
    /// to, in order (none for a request that waits).
    private func sessions(taking count: Int, from broker: inout Harness) -> [Frame] {
        (0..<count).flatMap { number in broker.request(from: "c", service: "echo", Frame("\(number)")).map { $0[0] } }
    }

    @Test func test_aSessionWithCreditThree_getsThreeRequestsAtOnce_andTheFourthWaitsForAReply() async {
        var broker = Harness()
        ready(&broker, "w", credit: 3)
        #expect(broker.request(from: "a", service: "echo", "1") == [tagged(to: "w", from: "a", tag: 0, "1")])
        #expect(broker.request(from: "a", service: "echo", "2") == [tagged(to: "w", from: "a", tag: 1, "2")])
        #expect(broker.request(from: "b", service: "echo", "3") == [tagged(to: "w", from: "b", tag: 2, "3")])
        #expect(broker.request(from: "b", service: "echo", "4").isEmpty, "past its credit, the request waits")
        // Replies in any order, each to its own client; a reply makes room.
        let second = broker.receive(from: "w", MDP.reply(client: MDP.tagged("a", 1), body: ["two"]))
        #expect(second == [tagged(to: "w", from: "b", tag: 3, "4"), clientReply(to: "a", service: "echo", "two")])
        #expect(broker.receive(from: "w", MDP.reply(client: MDP.tagged("a", 0), body: ["one"])) == [clientReply(to: "a", service: "echo", "one")])
        #expect(broker.core.workers["w"]?.inHand.count == 2)
    }

    @Test func test_sessionsWithRoom_takeTurns_aRunOfSixteenEach() async {
        var broker = Harness()
        ready(&broker, "x", credit: 40)
        ready(&broker, "y", credit: 40)
        let to = sessions(taking: 40, from: &broker)
        let runs: [[Frame]] = [Array(repeating: "x", count: 16), Array(repeating: "y", count: 16), Array(repeating: "x", count: 8)]
        #expect(to == runs.flatMap { $0 })
    }

    @Test func test_requestsThatComeOneATime_eachInATurnOfItsOwn_goToEachSessionInTurn() async {
        var broker = Harness()
        ready(&broker, "x", credit: 40)
        ready(&broker, "y", credit: 40)
        var to: [Frame] = []
        for number in 0..<4 {
            broker.core.turn += 1
            to += broker.request(from: "c", service: "echo", Frame("\(number)")).map { $0[0] }
            // Answered before the next comes, as one caller asking in a loop.
            _ = broker.receive(from: to.last!, MDP.reply(client: MDP.tagged("c", UInt32(number / 2)), body: ["r"]))
        }
        #expect(to == ["x", "y", "x", "y"], "a run lasts one turn: what status asks of every process reaches each")
    }

    @Test func test_aSessionWhoseCreditIsShorterThanARun_isFilled_thenTheNextTakesItsTurn() async {
        var broker = Harness()
        ready(&broker, "x", credit: 3)
        ready(&broker, "y", credit: 3)
        let to = sessions(taking: 7, from: &broker)
        #expect(to == ["x", "x", "x", "y", "y", "y"], "the seventh waits for a reply")
        // A reply makes room: the session that answered takes the next.
        let answered = broker.receive(from: "y", MDP.reply(client: MDP.tagged("c", 0), body: ["r"]))
        #expect(answered.first?.first == "y")
    }

    @Test func test_aReplyWithATagNotInHand_orAnotherClientsAddress_costsTheSessionItsRegistration() async {
        var broker = Harness()
        ready(&broker, "w", credit: 2)
        broker.request(from: "a", service: "echo")
        let forged = broker.receive(from: "w", MDP.reply(client: MDP.tagged("b", 0), body: ["x"]))
        #expect(forged.contains(["w"] + MDP.disconnect), "another client's address with a tag in hand")
        #expect(!forged.contains { $0.first == "b" }, "and nothing reaches the other client")
        ready(&broker, "v", credit: 2)
        broker.request(from: "a", service: "echo")
        let unknown = broker.receive(from: "v", MDP.reply(client: MDP.tagged("a", 7), body: ["x"]))
        #expect(unknown.contains(["v"] + MDP.disconnect), "a tag never handed out")
    }

    @Test func test_whenASessionWithCreditDies_everyRequestInItsHands_goesToAnotherInTheOrderTheyCame() async {
        var broker = Harness()
        ready(&broker, "dying", credit: 3)
        for number in 0..<3 { broker.request(from: "c", service: "echo", Frame("\(number)")) }
        broker.ready("other", service: "echo")
        let sent = broker.receive(from: "dying", MDP.disconnect)
        #expect(sent == [requestMessage(to: "other", from: "c", "0")], "one at a time to a session without credit")
        #expect(broker.core.totals.requeued == 3)
        #expect(
            broker.reply(from: "other", to: "c", "zero") == [
                requestMessage(to: "other", from: "c", "1"), clientReply(to: "c", service: "echo", "zero"),
            ])
    }

    @Test func test_eachRequestInASessionsHands_isAnsweredTimeoutWhenItsOwnBudgetRunsOut() async {
        var broker = Harness()
        ready(&broker, "w", credit: 2)
        broker.request(from: "a", service: "echo", "budget:100")
        broker.request(from: "b", service: "echo", "budget:5000")
        let sent = broker.advance(.milliseconds(200))
        #expect(sent == [clientReply(to: "a", service: "echo", "timeout:worker")])
        // Its late reply is dropped; the other's is delivered.
        #expect(broker.receive(from: "w", MDP.reply(client: MDP.tagged("a", 0), body: ["late"])).isEmpty)
        #expect(broker.receive(from: "w", MDP.reply(client: MDP.tagged("b", 1), body: ["ok"])) == [clientReply(to: "b", service: "echo", "ok")])
    }

    @Test func test_aSessionWithoutCredit_getsPlainAddresses_oneAtATime() async {
        var broker = Harness()
        broker.ready("w", service: "echo")
        #expect(broker.request(from: "a", service: "echo") == [requestMessage(to: "w", from: "a")])
        #expect(broker.request(from: "a", service: "echo").isEmpty)
    }
}
