@testable import Majordomo
import TestSupport
import TestTraits
import Testing
import ZeroMQ

/// MDP 0.2 peers are answered in their own dialect, never met with silence.
@Suite("Broker and MDP 0.2 peers", .ownThread, .timeLimit(.minutes(5)))
struct BrokerMDP02Tests {
    @Test func test_an18MDPClient_getsAFinalWithTheServiceAndTheRefusal() async {
        var broker = Harness()
        let sent = broker.receive(from: "c", ["MDPC02", Frame(byte: 0x01), "echo", "hello"])
        #expect(sent == [["c", "MDPC02", Frame(byte: 0x03), "echo", "speaks MDPC02"]])
        #expect(broker.core.totals.malformed == 1)
    }

    @Test func test_aMajortomoClient_getsAFinalInItsDialect() async {
        var broker = Harness()
        let sent = broker.receive(from: "c", ["", "MDPC02", Frame(byte: 0x02), "echo", "hello"])
        #expect(sent == [["c", "", "MDPC02", Frame(byte: 0x04), "speaks MDPC02"]])
    }

    @Test func test_anMDP02ClientMessageWithNoCommand_isStillAnswered_andTheBrokerStillServes() async {
        var broker = Harness()
        broker.ready("w1", service: "echo")
        #expect(broker.receive(from: "c1", ["", "MDPC02", "echo", "x"]).count == 1, "answered, not dropped")
        #expect(broker.request(from: "c2", service: "echo") == [requestMessage(to: "w1", from: "c2")])
    }

    @Test(arguments: [[Frame("MDPW02"), Frame(byte: 0x01), "echo"], [Frame(), "MDPW02", Frame(byte: 0x01), "echo"]])
    func test_anMDP02Worker_isToldToDisconnect_andNeverRegisters(_ ready: [Frame]) async {
        var broker = Harness()
        let sent = broker.receive(from: "w", ready)
        let delimiter: [Frame] = ready.first?.isEmpty == true ? [Frame()] : []
        #expect(sent == [["w"] + delimiter + ["MDPW02", Frame(byte: 0x06)]])
        #expect(broker.core.workers.isEmpty)
    }
}
