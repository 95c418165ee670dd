@testable import Majordomo
import TestSupport
import TestTraits
import Testing
import ZeroMQ

/// Within a service, requests are taken in turns across the clients that
/// have some waiting: a client that comes with a request waits behind at
/// most one request of each client already waiting, not behind their
/// whole queues.
@Suite("Broker fairness across clients", .ownThread, .timeLimit(.minutes(5)))
struct BrokerFairnessTests {
    @Test func test_aClientWithOneRequest_isServedNext_behindAThousandOfAnothers() async {
        var broker = Harness()
        broker.ready("w1", service: "echo")
        for number in 0..<1000 { broker.request(from: "flood", service: "echo", Frame("f\(number)")) }
        broker.request(from: "honest", service: "echo", "h")
        // The worker has f0; the flood's next turn came first, then the honest client's.
        #expect(broker.reply(from: "w1", to: "flood").first == requestMessage(to: "w1", from: "flood", "f1"))
        #expect(broker.reply(from: "w1", to: "flood").first == requestMessage(to: "w1", from: "honest", "h"))
        #expect(broker.reply(from: "w1", to: "honest").first == requestMessage(to: "w1", from: "flood", "f2"))
    }

    @Test func test_threeClients_takeTurns_eachInItsOwnOrder() async {
        var broker = Harness()
        for client in ["a", "b", "c"] {
            for number in 0..<3 { broker.request(from: Frame(client), service: "echo", Frame("\(client)\(number)")) }
        }
        broker.ready("w1", service: "echo")
        var served: [String] = []
        var holder: Frame = "a"
        for _ in 0..<9 {
            let sent = broker.core.workers["w1"]?.inHand.first
            served.append(sent?.body.last?.string ?? "?")
            holder = sent?.client ?? "?"
            broker.reply(from: "w1", to: holder)
        }
        #expect(served == ["a0", "b0", "c0", "a1", "b1", "c1", "a2", "b2", "c2"])
    }

    @Test func test_aClientThatComesLater_waitsOneTurn_notBehindEveryoneElsesBacklog() async {
        var broker = Harness()
        broker.ready("w1", service: "echo")
        for number in 0..<5 { broker.request(from: "a", service: "echo", Frame("a\(number)")) }  // a0 with w1
        broker.reply(from: "w1", to: "a")  // a1 with w1
        broker.request(from: "late", service: "echo", "l0")
        #expect(broker.reply(from: "w1", to: "a").first == requestMessage(to: "w1", from: "a", "a2"))
        #expect(broker.reply(from: "w1", to: "a").first == requestMessage(to: "w1", from: "late", "l0"), "not behind a3 and a4")
    }

    @Test func test_aNewcomer_waitsBehindOneRequestOfEachClient_evenMidRound() async {
        var broker = Harness()
        for number in 0..<3 {
            broker.request(from: "a", service: "echo", Frame("a\(number)"))
            broker.request(from: "b", service: "echo", Frame("b\(number)"))
        }
        broker.ready("w1", service: "echo")  // takes a0; b0 has the same turn, still waiting
        broker.request(from: "c", service: "echo", "c0")
        var served: [String] = []
        for _ in 0..<3 {
            let holder = broker.core.workers["w1"]?.inHand.first?.client ?? "?"
            served.append(broker.reply(from: "w1", to: holder).first?.last?.string ?? "?")
        }
        #expect(served == ["b0", "c0", "a1"], "behind b0 only, not b0 and b1")
    }

    @Test func test_aRequestWhoseWorkerDied_goesFirst() async {
        var broker = Harness()
        broker.ready("w1", service: "echo")
        broker.request(from: "a", service: "echo", "a0")  // with w1
        broker.request(from: "b", service: "echo", "b0")
        broker.request(from: "c", service: "echo", "c0")
        broker.receive(from: "w1", MDP.disconnect)  // a0 back in the queue
        let sent = broker.ready("w2", service: "echo")
        #expect(sent.first == requestMessage(to: "w2", from: "a", "a0"))
    }

    @Test func test_expiredRequests_leaveTheTurnsOfThoseLeft() async {
        var broker = Harness()  // queue wait 2 s
        for number in 0..<3 { broker.request(from: "old", service: "echo", Frame("o\(number)")) }
        broker.advance(.milliseconds(1500))
        broker.request(from: "new", service: "echo", "n0")
        let expired = broker.advance(.milliseconds(600))
        #expect(expired.count == 3 && expired.allSatisfy { $0.first == "old" && $0.last == "unavailable" })
        #expect(broker.ready("w1", service: "echo").first == requestMessage(to: "w1", from: "new", "n0"))
        #expect(broker.core.services["echo"]?.queue.isEmpty == true)
    }
}
