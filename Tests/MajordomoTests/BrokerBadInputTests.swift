@testable import Majordomo
import TestSupport
import TestTraits
import Testing
import ZeroMQ

@Suite("Broker bad input", .ownThread, .timeLimit(.minutes(5)))
struct BrokerBadInputTests {
    @Test(arguments: [
        ("no delimiter", ["MDPC01", "echo", "x"] as [Frame]),
        ("no frames after the id", []),
        ("unknown header", ["", "HTTP/1.1", "GET /"]),
        ("client header only", ["", "MDPC01"]),
    ])
    func test_whenAClientMessageIsMalformed_thenItIsDroppedAndCounted(_ name: String, _ frames: [Frame]) async {
        var broker = Harness()
        broker.ready("w1", service: "echo")
        #expect(broker.receive(from: "c1", frames).isEmpty, "\(name)")
        #expect(broker.core.totals.malformed == 1)
        // The broker still serves.
        #expect(broker.request(from: "c2", service: "echo") == [requestMessage(to: "w1", from: "c2")])
    }

    @Test(arguments: [
        ("unknown command byte", ["", "MDPW01", Frame(byte: 0x09)] as [Frame]),
        ("command of two bytes", ["", "MDPW01", Frame([0x01, 0x01]), "echo"]),
        ("REQUEST sent by a worker", ["", "MDPW01", MDP.Command.request.frame, "c", ""]),
        ("READY without service", ["", "MDPW01", MDP.Command.ready.frame]),
        ("REPLY without client", ["", "MDPW01", MDP.Command.reply.frame]),
        ("worker header only", ["", "MDPW01"]),
    ])
    func test_whenAWorkerMessageViolatesTheProtocol_thenTheWorkerIsDisconnected(_ name: String, _ frames: [Frame]) async {
        var broker = Harness()
        broker.ready("w1", service: "echo")
        #expect(broker.receive(from: "w1", frames) == [disconnectMessage(to: "w1")], "\(name)")
        #expect(broker.core.workers["w1"] == nil)
    }

    @Test func test_whenAWorkerSendsASecondReady_thenItIsDisconnected() async {
        var broker = Harness()
        broker.ready("w1", service: "echo")
        #expect(broker.ready("w1", service: "other") == [disconnectMessage(to: "w1")])
        #expect(broker.core.services["echo"]?.workers == 0)
    }

    @Test func test_whenAWorkerRepliesWithoutARequest_thenItIsDisconnected() async {
        var broker = Harness()
        broker.ready("w1", service: "echo")
        #expect(broker.reply(from: "w1", to: "c1") == [disconnectMessage(to: "w1")])
    }

    @Test func test_whenAWorkerRegistersForAReservedService_thenItIsDisconnected() async {
        var broker = Harness()
        #expect(broker.ready("w1", service: "mmi.service") == [disconnectMessage(to: "w1")])
    }

    @Test func test_whenAMessageHasTooManyFrames_thenItIsDropped() async {
        var broker = Harness { $0.maxFrames = 8 }
        broker.ready("w1", service: "echo")
        let frames = MDP.clientRequest(service: "echo", body: Array(repeating: "x", count: 10))
        #expect(broker.receive(from: "c1", frames).isEmpty)
    }
}

@Suite("8/MMI", .ownThread, .timeLimit(.minutes(5)))
struct MMITests {
    @Test func test_whenAskedAboutAServiceWithWorkers_thenAnswers200_elseAnswers404() async {
        var broker = Harness()
        broker.ready("w1", service: "echo")
        #expect(broker.request(from: "c", service: "mmi.service", "echo") == [clientReply(to: "c", service: "mmi.service", "200")])
        #expect(broker.request(from: "c", service: "mmi.service", "nosuch") == [clientReply(to: "c", service: "mmi.service", "404")])
    }

    @Test func test_whenAskedForAnUnknownInternalService_thenAnswers501() async {
        var broker = Harness()
        #expect(broker.request(from: "c", service: "mmi.nosuch") == [clientReply(to: "c", service: "mmi.nosuch", "501")])
    }

    @Test func test_whenAskedForAnIntrospectionService_thenTheProviderAnswersFromASnapshot() async {
        var broker = Harness()
        broker.ready("w1", service: "echo")
        broker.ready("w2", service: "echo")
        #expect(broker.request(from: "c", service: "mmi.count") == [clientReply(to: "c", service: "mmi.count", "2")])
    }
}
