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
    /// Opens `count` connections, each sending a greeting and READY as far
    /// as it can (a closed one is kept too: the test only holds them).
    private func hold(_ count: Int, at endpoint: String) -> [StreamPeer] {
        (0..<count).compactMap { StreamPeer.holding(endpoint, identity: "holder-\($0)") }
    }

    /// How many of `holders` the gateway closed, looking until at least
    /// `least` are or `limit` passes: over tcp:// a connection the backlog
    /// could not take is tried again by the kernel a second or more later.
    private func closed(of holders: [StreamPeer], atLeast least: Int, within limit: Duration) async -> Int {
        var closed = Set<Int>()
        _ = await eventually(within: limit, every: .milliseconds(50)) {
            for (index, holder) in holders.enumerated() where !closed.contains(index) && holder.read() == nil { closed.insert(index) }
            return closed.count >= least
        }
        return closed.count
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

    @Test(arguments: ["ipc", "tcp"])
    func test_pastTheConnectionLimit_newConnectionsAreClosed_andTheGatewayKeepsItsReserveAndItsPeers(carrier: String) async throws {
        let harness = try ProcessHarness(tcp: carrier == "tcp")
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
        let closed = await closed(of: holders, atLeast: 300 - 192, within: .seconds(30))
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

    @Test(arguments: ["ipc", "tcp"])
    func test_outOfDescriptors_theGatewayDoesNotSpin_andServesThePeersItHas(carrier: String) async throws {
        let harness = try ProcessHarness(tcp: carrier == "tcp")
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
