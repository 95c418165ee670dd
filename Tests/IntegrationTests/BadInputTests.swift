import Foundation
import TestSupport
import Testing
import Wire
import ZeroMQ

@Suite("Gateway survives bad input", .serialized, .timeLimit(.minutes(5)))
struct BadInputTests {
    /// Sends `frames` from a fresh raw peer, then proves the gateway still
    /// serves. Returns the peer: the caller keeps it open, because a socket
    /// closed with linger 0 drops a message libzmq has not sent yet.
    private func survives(_ frames: [Frame], harness: ProcessHarness, context: Context, client: GatewayClient) async throws -> RawPeer {
        let peer = try RawPeer(context, endpoint: harness.gatewayEndpoint)
        try peer.send(frames)
        #expect(try await client.echo()["service"] == "echo", "after \(frames)")
        return peer
    }

    @Test func test_malformedMessagesAreDropped_andTheGatewayKeepsAnswering() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startGateway(["--max-frame-size", "65536"], context: context)
        try await harness.startEcho("echo", context: context)
        let client = try GatewayClient(endpoint: harness.gatewayEndpoint, context: context)

        let cases: [[Frame]] = [
            ["MDPC01", "echo", "no delimiter"],
            ["", "MDPC02", "echo", "a 0.2 client"],
            ["", "XYZ123", "echo", "unknown header"],
            ["", "MDPC01"],
            ["", "MDPC01", "", "empty service"],
            [Frame([0xde, 0xad, 0xbe, 0xef])],
            ["", "MDPC01", "echo"] + (0..<70).map { Frame("part \($0)") },
            ["", "MDPC01", "echo", Frame([UInt8](repeating: 0x41, count: 1 << 20))],
        ]
        var peers: [RawPeer] = []
        for frames in cases { peers.append(try await survives(frames, harness: harness, context: context, client: client)) }
        // Seven are dropped and counted (the one of 73 frames as it arrives,
        // never held whole); the oversized one costs its sender the
        // connection, and the log says why. Each came on its own
        // connection, so the last may still be on its way.
        let counted = await eventually(within: .seconds(5)) { (try? await client.status().totals.malformed) == 7 }
        #expect(counted, "the gateway counts exactly the seven malformed messages")
        peers.removeAll()

        // Not ZMTP at all: refused with a ZMTP ERROR, and logged.
        try await writeGarbage(
            Array("GET / HTTP/1.1\r\n\r\n".utf8) + (0..<512).map { UInt8($0 % 256) },
            toUnixSocket: "\(harness.directory)/gateway.ipc")
        #expect(try await client.echo()["service"] == "echo", "after raw garbage bytes")
        #expect(harness.process("gateway")?.isRunning == true)
        let logged = await eventually(within: .seconds(5)) {
            let log = harness.log("gateway")
            return log.contains("a message of 73 frames (at most 64)") && log.contains("a frame of 1048576 bytes is over the limit of 65536")
                && log.contains("it does not speak ZMTP")
        }
        #expect(logged, "\(harness.log("gateway"))")
    }

    @Test func test_workerProtocolViolationsAreAnsweredWithDisconnect() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startGateway(context: context)
        try await harness.startEcho("echo", context: context)
        let client = try GatewayClient(endpoint: harness.gatewayEndpoint, context: context)
        let disconnect: [Frame] = ["", "MDPW01", Frame(byte: 5)]

        let unknownCommand = try RawPeer(context, endpoint: harness.gatewayEndpoint)
        try unknownCommand.send(["", "MDPW01", Frame(byte: 0x42)])
        #expect(try await unknownCommand.receive() == disconnect)

        let twiceReady = try RawPeer(context, endpoint: harness.gatewayEndpoint)
        try twiceReady.send(["", "MDPW01", Frame(byte: 1), "echo"])
        try twiceReady.send(["", "MDPW01", Frame(byte: 1), "echo"])
        var answer = try await twiceReady.receive()
        while answer == ["", "MDPW01", Frame(byte: 4)] { answer = try await twiceReady.receive() }
        #expect(answer == disconnect)

        let strayReply = try RawPeer(context, endpoint: harness.gatewayEndpoint)
        try strayReply.send(["", "MDPW01", Frame(byte: 3), "someone", "", "reply nobody asked for"])
        #expect(try await strayReply.receive() == disconnect)

        #expect(try await client.echo()["service"] == "echo")
        #expect(try await client.workers(of: "echo") == 1)
    }

    @Test func test_badSettingsAreRefusedWithAMessageNamingTheValue() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let process = try harness.start("bad", "gateway", ["--heartbeat-interval", "soon"])
        let status = await process.exit(within: .seconds(10))
        #expect(status != nil && status != 0)
        #expect(harness.log("bad").contains("'soon' is not a duration"))

        let badEndpoint = try harness.start("bad-endpoint", "gateway", ["--bind", "htp://x"])
        let badStatus = await badEndpoint.exit(within: .seconds(10))
        #expect(badStatus != nil && badStatus != 0)
        #expect(harness.log("bad-endpoint").contains("'htp://x'"))
    }

    @Test func test_helpExplainsEveryEnvironmentVariable() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let process = try harness.start("help", "gateway", ["--help"])
        #expect(await process.exit(within: .seconds(10)) == 0)
        let help = harness.log("help")
        for variable in [
            "POSTS_GATEWAY_BIND", "POSTS_HEARTBEAT_INTERVAL", "POSTS_HEARTBEAT_LIVENESS", "POSTS_QUEUE_WAIT",
            "POSTS_QUEUE_LIMIT", "POSTS_CLIENT_LIMIT", "POSTS_MAX_FRAME_SIZE", "POSTS_SHUTDOWN_GRACE", "POSTS_LOG_LEVEL",
            "POSTS_RUNTIME_DIR", "POSTS_EVENTS_PUBLISH", "POSTS_EVENTS_SUBSCRIBE",
        ] {
            #expect(help.contains(variable), "\(variable) missing from --help")
        }
    }
}
