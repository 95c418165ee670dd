import Foundation
import Testing
import ZeroMQ

/// A real MDP 0.2 client (the PyPI package majortomo, which deploy/setup
/// installs) gets an answer it can read instead of a timeout.
@Suite("MDP 0.2 peers", .serialized, .timeLimit(.minutes(5)))
struct MDP02PeerTests {
    static let client = """
        import json, sys
        from majortomo import Client
        client = Client(sys.argv[1])
        client.connect()
        client.send(b"echo", json.dumps({"jsonrpc": "2.0", "id": 7, "method": "echo"}).encode())
        reply = client.recv_all_as_list(timeout=5)
        print(json.dumps(json.loads(reply[-1])))
        client.close()
        """

    @Test func test_aMajortomoClient_isToldThisBrokerSpeaks7MDP01_insteadOfTimingOut() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        try await harness.startGateway(context: try Context())
        let log = harness.logPath("majortomo")
        let python = try Spawned(
            "/usr/bin/env", ["python3", "-c", Self.client, harness.gatewayEndpoint], environment: harness.environment,
            output: log, errors: log)
        defer { python.killInBackground() }  // a no-op once it has exited; never left behind
        let status = await python.exit(within: .seconds(20))
        let output = harness.log("majortomo")
        #expect(status == 0, "\(output)")
        #expect(output.contains("7/MDP 0.1") && output.contains("-32600") && output.contains(#""id": 7"#), "\(output)")
    }
}
