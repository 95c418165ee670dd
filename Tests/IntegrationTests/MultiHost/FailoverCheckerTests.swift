import Foundation
import Testing
import Wire

/// The fault checker, Jepsen-style, over hosts in network namespaces: two
/// gateway hosts, posts-service on two hosts sharing PostgreSQL on a sixth,
/// two search hosts, and a client host whose clients record every
/// operation (`failover-client`). Faults come one at a time, so a gateway
/// always lives: kill -9 of a gateway, SIGSTOP of a gateway past its
/// liveness, a gateway host's link cut, a posts host killed. After healing,
/// the history is checked against what PostgreSQL holds and what every
/// search replica serves. Needs root (ip netns); CI runs as root.
@Suite(
    "Failover checker: gateways, posts and search on seven hosts",
    .serialized, .enabled(if: NetworkLab.isAvailable, "needs root and iproute2"), .timeLimit(.minutes(5))
)
struct FailoverCheckerTests {
    /// Ports every gateway binds: MDP, then its bus's publish and subscribe sides.
    static let ports = (mdp: 5555, publish: 5556, subscribe: 5557)

    @Test func test_failover_underKillsStopsAndCutLinks_noAcknowledgedWriteIsLostOrDoubled_andNoRequestFails() async throws {
        let harness = try ProcessHarness()
        let lab = try await NetworkLab.open(hosts: ["r", "g1", "g2", "p1", "p2", "s1", "s2", "c", "db"])
        defer {
            harness.shutdown()
            lab.remove()
        }
        let keys = try await KeyRing(
            harness, names: ["gateway", "posts-p1", "posts-p2", "search-s1", "search-s2", "client"],
            allowed: ["posts-p1", "posts-p2", "search-s1", "search-s2", "client"])
        let gateways = ["g1", "g2"]
        func list(_ port: Int) -> String { gateways.map { "tcp://\(lab.address(of: $0)):\(port)" }.joined(separator: ",") }
        func host(key: String) -> [String: String] {
            [
                "POSTS_GATEWAY": list(Self.ports.mdp), "POSTS_EVENTS_PUBLISH": list(Self.ports.publish),
                "POSTS_EVENTS_SUBSCRIBE": list(Self.ports.subscribe), "POSTS_HEARTBEAT_INTERVAL": "250ms",
                "POSTS_GATEWAY_KEY": keys.publicFile("gateway"), "POSTS_CURVE_KEY": keys.secret(key),
            ]
        }
        // Gateways side by side share one key pair: clients know one public key.
        func startGateway(_ name: String) throws {
            try harness.start(
                "gateway-\(name)", "gateway", [],
                environment: [
                    "POSTS_GATEWAY_BIND": "tcp://*:\(Self.ports.mdp)", "POSTS_EVENTS_PUBLISH": "tcp://*:\(Self.ports.publish)",
                    "POSTS_EVENTS_SUBSCRIBE": "tcp://*:\(Self.ports.subscribe)", "POSTS_HEARTBEAT_INTERVAL": "250ms",
                    "POSTS_CURVE_KEY": keys.secret("gateway"), "POSTS_CURVE_ALLOW": keys.allow,
                ], wrapper: lab.wrapper(name))
        }
        let database = PostgresCluster(
            address: lab.address(of: "db"), wrapper: lab.wrapper("db"), password: "pw\(UUID().uuidString.prefix(8))", tls: true)
        let url = try await database.newDatabase()
        func startPosts(_ name: String) throws {
            try harness.start(
                "posts-\(name)", "posts-service", ["--database-url", url.withPassword], environment: host(key: "posts-\(name)"),
                wrapper: lab.wrapper(name))
        }
        for name in gateways { try startGateway(name) }
        for name in ["p1", "p2"] { try startPosts(name) }
        for name in ["s1", "s2"] {
            try harness.start(
                "search-\(name)", "search-service", ["--sync-interval", "5s"], environment: host(key: "search-\(name)"),
                wrapper: lab.wrapper(name))
        }

        // From the client host: what one gateway says, asked of it alone.
        func status(through gateway: String? = nil) async -> JSONValue? {
            let only = gateway.map { ["--gateway", "tcp://\(lab.address(of: $0)):\(Self.ports.mdp)"] } ?? []
            let result = try? await harness.run(
                "posts", ["status", "--json", "--timeout", "3"] + only, without: ["POSTS_LOG_LEVEL"], environment: host(key: "client"),
                wrapper: lab.wrapper("c"))
            return result?.json
        }
        func ready(_ gateway: String) async -> Bool {
            await eventually(within: .seconds(20)) {
                let services = await status(through: gateway)?["services"]?.arrayValue
                let processes = { (name: String) in services?.first { $0["name"]?.stringValue == name }?["processes"]?.intValue ?? 0 }
                return processes("posts") == 2 && processes("search") == 2
            }
        }
        for name in gateways {
            let up = await ready(name)
            #expect(
                up,
                "gateway \(name) with every worker:\n\(harness.log("gateway-\(name)"))\n\(harness.log("posts-p1"))\n\(harness.log("search-s1"))")
            guard up else { return }
        }

        // The clients, and the faults while they run.
        let history = harness.directory + "/history.jsonl"
        let stop = harness.directory + "/stop"
        let client = try harness.start(
            "client", "failover-client", ["--history", history, "--clients", "4", "--timeout", "3", "--duration", "120", "--stop-file", stop],
            environment: host(key: "client"), wrapper: lab.wrapper("c"))
        var faults: [(name: String, at: Double)] = []
        func fault(_ name: String, _ act: () async throws -> Void) async rethrows {
            faults.append((name, Date().timeIntervalSince1970 * 1000))
            try await act()
        }
        try await Task.sleep(for: .seconds(4))

        await fault("kill -9 gateway g1") { await harness.kill("gateway-g1") }
        try await Task.sleep(for: .seconds(1.5))
        try startGateway("g1")
        #expect(await ready("g1"), "g1 came back with every worker")
        try await Task.sleep(for: .seconds(2))

        let g2 = try #require(harness.process("gateway-g2"))
        await fault("SIGSTOP gateway g2") { g2.signal(SIGSTOP) }
        try await Task.sleep(for: .seconds(2.5))
        g2.signal(SIGCONT)
        #expect(await ready("g2"), "g2 serves again after SIGCONT")
        try await Task.sleep(for: .seconds(2))

        try await fault("cut the link of gateway host g1") { try await lab.cut("g1") }
        try await Task.sleep(for: .seconds(2.5))
        try await lab.heal("g1")
        #expect(await ready("g1"), "g1 serves again once its link is back")
        try await Task.sleep(for: .seconds(2))

        await fault("kill -9 posts host p1") { await harness.kill("posts-p1") }
        try await Task.sleep(for: .seconds(1.5))
        try startPosts("p1")
        let backOnG1 = await ready("g1")
        let backOnG2 = await ready("g2")
        #expect(backOnG1 && backOnG2, "p1 serves both gateways again")
        try await Task.sleep(for: .seconds(2))

        _ = FileManager.default.createFile(atPath: stop, contents: nil)
        #expect(await client.exit(within: .seconds(20)) == 0, "the clients stopped:\n\(harness.log("client"))")

        // After healing: the history against the store and the replicas.
        let recorded = try FailoverHistory(path: history)
        let rows = try await database.value("SELECT uid, title, update_ms FROM post", in: url.database)
        var stored: [String: FailoverHistory.Stored] = [:]
        for row in rows.split(separator: "\n") {
            let cells = row.split(separator: "|", omittingEmptySubsequences: false)
            guard cells.count == 3, let updated = Int64(cells[2]) else { continue }
            stored[cells[0].uppercased()] = FailoverHistory.Stored(title: String(cells[1]), updateMilliseconds: updated)
        }
        let violations = recorded.violations(stored: stored)
        #expect(violations.isEmpty, "\(violations.count) violations:\n\(violations.prefix(20).joined(separator: "\n"))")

        // Applied once: every write that changed something took one change
        // sequence and left one request key; a write applied twice would take
        // two sequences under one key.
        let sequences = Int(try await database.value("SELECT value FROM change_sequence", in: url.database)) ?? -1
        let keyed = Int(try await database.value("SELECT count(*) FROM request_key WHERE answer <> 'absent'", in: url.database)) ?? -2
        #expect(sequences == keyed, "\(sequences) change sequences for \(keyed) writes: some write was applied twice")
        let acknowledged = recorded.writes.filter { $0.type == "ok" && $0.deleted != false }.count
        #expect(keyed >= acknowledged, "\(keyed) writes applied, \(acknowledged) acknowledged")

        let unavailable = recorded.unavailable
        #expect(
            unavailable.isEmpty,
            "requests failed while a gateway lived:\n\(unavailable.prefix(10).map { "\($0.op): \($0.error ?? "")" }.joined(separator: "\n"))")

        let searchable = await eventually(within: .seconds(30)) {
            let indexes = await status()?["searchIndexes"]?.arrayValue
            return indexes?.count == 2 && indexes?.allSatisfy { $0["documents"]?.intValue == stored.count && $0["lag"]?.intValue == 0 } == true
        }
        let indexes = searchable ? "" : "\(await status()?["searchIndexes"].map { "\($0)" } ?? "")"
        #expect(searchable, "both search replicas hold every post (\(stored.count)):\n\(indexes)")

        // The figures.
        let counts = recorded.counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        print("failover checker: \(recorded.operations.count) operations (\(counts)); \(stored.count) posts stored")
        for (name, at) in faults {
            let times = recorded.failoverTimes(after: [at])
            let (p50, p99, max) = FailoverHistory.percentiles(times)
            print(
                String(
                    format: "failover checker: %@ at %.0f: next successful reply p50 %.0f ms, p99 %.0f ms, max %.0f ms", name, at, p50, p99, max))
        }
        let all = FailoverHistory.percentiles(recorded.failoverTimes(after: faults.map(\.at)))
        print(String(format: "failover checker: all faults: p50 %.0f ms, p99 %.0f ms, max %.0f ms", all.p50, all.p99, all.max))
        #expect(recorded.operations.count > 100, "the clients did work: \(recorded.operations.count) operations")
    }
}
