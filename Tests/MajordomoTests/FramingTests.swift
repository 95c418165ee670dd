@testable import Majordomo
import TestSupport
import TestTraits
import Testing
import ZeroMQ

@Suite("7/MDP framing", .ownThread, .timeLimit(.minutes(5)))
struct FramingTests {
    @Test func test_clientRequestFrames_followTheSpecification() async {
        #expect(MDP.clientRequest(service: "echo", body: ["a", "b"]) == ["", "MDPC01", "echo", "a", "b"])
    }

    @Test func test_workerCommandFrames_followTheSpecification() async {
        #expect(MDP.ready(service: "echo") == ["", "MDPW01", Frame(byte: 1), "echo"])
        #expect(MDP.reply(client: "c", body: ["x"]) == ["", "MDPW01", Frame(byte: 3), "c", "", "x"])
        #expect(MDP.heartbeat == ["", "MDPW01", Frame(byte: 4)])
        #expect(MDP.disconnect == ["", "MDPW01", Frame(byte: 5)])
    }

    @Test func test_parsingWhatAWorkerSends_givesTheCommand() async {
        func parse(_ frames: [Frame]) -> InboundMessage? { try? InboundMessage.parse(frames[...], maxFrames: 64).get() }
        #expect(parse(MDP.ready(service: "echo")) == .ready(service: "echo"))
        #expect(parse(MDP.reply(client: "c", body: ["x", "y"])) == .reply(client: "c", body: ["x", "y"]))
        #expect(parse(MDP.heartbeat) == .heartbeat)
        #expect(parse(MDP.disconnect) == .disconnect)
        #expect(parse(MDP.clientRequest(service: "s", body: [])) == .clientRequest(service: "s", body: []))
    }

    @Test func test_aWorkerOfSeveralBrokersNamesThemInAFrameMore_andOfOneSendsTheREADYTheSpecificationSays() async {
        func parse(_ frames: [Frame]) -> InboundMessage? { try? InboundMessage.parse(frames[...], maxFrames: 64).get() }
        #expect(MDP.ready(service: "echo", brokers: ["tcp://a:5555"]) == MDP.ready(service: "echo"))
        let two = MDP.ready(service: "echo", brokers: ["tcp://a:5555", "ipc:///run/b/gateway.ipc"])
        #expect(two.count == 5)
        #expect(parse(two) == .ready(service: "echo", brokers: ["tcp://a:5555", "ipc:///run/b/gateway.ipc"]))
        // A list that is not printable text is no list; a long one is cut to 16.
        #expect(parse(MDP.ready(service: "echo") + [Frame([0xFF, 0x00])]) == .ready(service: "echo"))
        let many = (0..<40).map { "tcp://h\($0):1" }
        #expect(parse(MDP.ready(service: "echo", brokers: many)) == .ready(service: "echo", brokers: Array(many.prefix(16))))
    }

    /// The credit extension: a frame after the broker list (then sent even
    /// when empty), 1 to 1000 in decimal; anything else is one at a time.
    @Test func test_aSessionWithCreditSaysSoInTheFrameAfterTheBrokerList() async {
        func parse(_ frames: [Frame]) -> InboundMessage? { try? InboundMessage.parse(frames[...], maxFrames: 64).get() }
        #expect(MDP.ready(service: "echo", credit: 1) == MDP.ready(service: "echo"))
        #expect(MDP.ready(service: "echo", credit: 16) == MDP.ready(service: "echo") + ["", "16"])
        #expect(parse(MDP.ready(service: "echo", credit: 16)) == .ready(service: "echo", credit: 16))
        let both = MDP.ready(service: "echo", brokers: ["tcp://a:1", "tcp://b:1"], credit: 4)
        #expect(parse(both) == .ready(service: "echo", brokers: ["tcp://a:1", "tcp://b:1"], credit: 4))
        for bad in ["0", "1001", "-3", "+4", "4x", "", "99999", "١٢"] {
            #expect(parse(MDP.ready(service: "echo") + ["", Frame(bad)]) == .ready(service: "echo"), "credit \(bad)")
        }
        #expect(parse(MDP.ready(service: "echo") + ["", "1000"]) == .ready(service: "echo", credit: 1000))
    }

    @Test func test_aTaggedAddress_givesBackItsTag_onlyWithItsOwnClient() async {
        let address = MDP.tagged("client-1", 0x0102_0304)
        #expect(address.count == 12)
        #expect(MDP.tag(of: address, client: "client-1") == 0x0102_0304)
        #expect(MDP.tag(of: address, client: "client-2") == nil)
        #expect(MDP.tag(of: "client-1", client: "client-1") == nil)
    }

    @Test func test_parsingWhatTheBrokerSendsAWorker_givesTheCommand() async {
        #expect(BrokerCommand(["", "MDPW01", Frame(byte: 2), "client", "", "body"]) == .request(client: "client", body: ["body"]))
        #expect(BrokerCommand(MDP.heartbeat) == .heartbeat)
        #expect(BrokerCommand(MDP.disconnect) == .disconnect)
        #expect(BrokerCommand(["", "MDPW01", Frame(byte: 2), "client"]) == .malformed("REQUEST without client address and delimiter"))
        #expect(BrokerCommand(["garbage"]) == .malformed("not an MDPW01 command"))
    }

    @Test func test_latencyPercentiles_useNearestRank() async throws {
        let summary = try #require(LatencySummary(nanoseconds: (1...100).map { Int64($0) * 1_000_000 }))
        #expect(summary.p50 == .milliseconds(50))
        #expect(summary.p90 == .milliseconds(90))
        #expect(summary.p99 == .milliseconds(99))
        #expect(summary.max == .milliseconds(100))
        #expect(LatencySummary(nanoseconds: []) == nil)
    }
}
