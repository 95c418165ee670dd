import Foundation
import TestSupport
import Testing
import ZeroMQ

/// The real gateway when peers hold every descriptor it may have: it keeps
/// a reserve, closes what is past its connection limit, does not spin, and
/// keeps serving the peers it has. Run under `prlimit`, so the limits are
/// small enough to reach.
@Suite("Gateway descriptors", .serialized, .timeLimit(.minutes(5)))
struct GatewayDescriptorTests {
    /// Opens `count` connections, each sending a greeting and READY (a
    /// closed one is kept too: the test only holds them).
    private func hold(_ count: Int, at endpoint: String) -> [StreamPeer] {
        (0..<count).compactMap { number in
            guard let peer = try? StreamPeer(endpoint: endpoint) else { return nil }
            try? peer.open(identity: "holder-\(number)")
            return peer
        }
    }

    /// CPU seconds `pid` used over `interval`.
    private func cpu(of pid: pid_t, over interval: Duration) async throws -> Double {
        let before = try #require(ProcStat.cpuSeconds(pid))
        try await Task.sleep(for: interval)
        return try #require(ProcStat.cpuSeconds(pid)) - before
    }

    @Test func test_everyProcessRaisesItsSoftDescriptorLimitToTheHardOne_andLogsIt() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        let limits = ["/usr/bin/prlimit", "--nofile=100:300"]
        try await harness.startGateway(wrapper: limits, context: context)
        #expect(harness.log("gateway").contains("file descriptor limit hard=300 soft=300"), "\(harness.log("gateway"))")
        #expect(harness.log("gateway").contains("maxConnections=236"), "300 less a reserve of 64")
        try harness.start("echo", "echo-worker", ["--inline"], wrapper: limits)
        #expect(await eventually { harness.log("echo").contains("file descriptor limit hard=300 soft=300") }, "\(harness.log("echo"))")
    }

    @Test func test_pastTheConnectionLimit_newConnectionsAreClosed_andTheGatewayKeepsItsReserveAndItsPeers() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startGateway(wrapper: ["/usr/bin/prlimit", "--nofile=256:256"], context: context)
        try await harness.startEcho("echo", ["--inline"], context: context)
        let pid = try #require(harness.process("gateway")?.processIdentifier)
        #expect(harness.log("gateway").contains("maxConnections=192"), "256 less a reserve of 64: \(harness.log("gateway"))")
        let client = try GatewayClient(endpoint: harness.gatewayEndpoint, context: context, timeout: .seconds(5), retries: 0)
        #expect(try await client.echo()["service"] == "echo")
        let holders = hold(300, at: harness.gatewayEndpoint)
        #expect(await eventually { harness.log("gateway").contains("connection over the limit closed") }, "\(harness.log("gateway"))")
        var closed = 0
        for holder in holders where await holder.closedByPeer(within: .milliseconds(20)) { closed += 1 }
        #expect(closed >= 300 - 192, "\(closed) of 300 were closed")
        #expect(try await cpu(of: pid, over: .seconds(2)) < 0.5, "no busy loop while the limit is held")
        // The event bus's listeners share the limit: before, its libzmq
        // listener made the gateway abort when descriptors ran out.
        let busHolders = hold(100, at: "ipc://\(harness.directory)/events-subscribe.ipc")
        var busClosed = 0
        for holder in busHolders where await holder.closedByPeer(within: .milliseconds(20)) { busClosed += 1 }
        #expect(busClosed > 0, "closed at once: the budget is spent")
        let subscriber = try Socket(context, .subscribe)
        try subscriber.set(.subscribe, [])
        try subscriber.connect("ipc://\(harness.directory)/events-subscribe.ipc")
        defer { subscriber.close() }
        try await Task.sleep(for: .milliseconds(300))
        #expect(harness.process("gateway")?.isRunning == true)
        #expect(try await client.echo()["service"] == "echo", "a peer it had is still served")
        withExtendedLifetime((holders, busHolders)) {}
    }

    @Test func test_outOfDescriptors_theGatewayDoesNotSpin_andServesThePeersItHas() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        // A connection limit past the descriptor limit: accept itself fails.
        try await harness.startGateway(["--max-connections", "100000"], wrapper: ["/usr/bin/prlimit", "--nofile=128:128"], context: context)
        try await harness.startEcho("echo", ["--inline"], context: context)
        let pid = try #require(harness.process("gateway")?.processIdentifier)
        let client = try GatewayClient(endpoint: harness.gatewayEndpoint, context: context, timeout: .seconds(5), retries: 0)
        #expect(try await client.echo()["service"] == "echo")
        let holders = hold(200, at: harness.gatewayEndpoint)
        #expect(await eventually { harness.log("gateway").contains("out of file descriptors") }, "\(harness.log("gateway"))")
        #expect(try await cpu(of: pid, over: .seconds(2)) < 0.5, "no busy loop while no descriptor is left")
        #expect(harness.process("gateway")?.isRunning == true)
        #expect(try await client.echo()["service"] == "echo", "a peer it had is still served")
        withExtendedLifetime(holders) {}
    }
}
