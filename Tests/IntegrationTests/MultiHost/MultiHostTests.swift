import Foundation
import Testing
import Wire

/// The system spread over hosts (network namespaces), as
/// docs/OPERATIONS.md "Across hosts" sets it up: A runs the gateway and the
/// event bus on tcp:// with CURVE, B posts-service, C and D a search-service
/// each, E the `posts` CLI; or B and F posts-service sharing PostgreSQL on
/// G. Needs root (ip netns); CI runs as root.
@Suite(
    "MultiHost: five hosts in network namespaces", .serialized,
    .enabled(if: NetworkLab.isAvailable, "needs root and iproute2 (ip netns)"), .timeLimit(.minutes(5))
)
struct MultiHostTests {
    static let tcpdump = ["/usr/bin/tcpdump", "/usr/sbin/tcpdump"].first { FileManager.default.isExecutableFile(atPath: $0) }

    enum Posts: String, CaseIterable, CustomTestStringConvertible, Sendable {
        /// posts-service on B, with its SQLite file.
        case oneHost
        /// posts-service on B and on F, sharing PostgreSQL on G.
        case twoHostsOnPostgres
        var testDescription: String { rawValue }
    }

    @Test(arguments: Posts.allCases)
    func test_theTourAcrossHosts_encrypted_allowListed_andSurvivingALostSearchHost(_ layout: Posts) async throws {
        let tcpdump = try #require(Self.tcpdump, "tcpdump is needed to check the wire (deploy/setup --test installs it)")
        let harness = try ProcessHarness()
        let onPostgres = layout == .twoHostsOnPostgres
        let lab = try await NetworkLab.open(hosts: ["a", "b", "c", "d", "e"] + (onPostgres ? ["f", "g"] : []))
        defer {
            harness.shutdown()
            lab.remove()
        }
        let keys = try await KeyRing(
            harness, names: ["gateway", "posts-b", "posts-f", "search-c", "search-d", "cli-e", "stranger", "newcomer"],
            allowed: ["posts-b", "posts-f", "search-c", "search-d", "cli-e"])
        let common = ["POSTS_HEARTBEAT_INTERVAL": "250ms", "POSTS_GATEWAY_KEY": keys.publicFile("gateway")]
        func host(_ name: String, key: String?) -> [String: String] {
            let hub = lab.hubAddress(for: name)
            var environment = common.merging([
                "POSTS_GATEWAY": "tcp://\(hub):5555", "POSTS_EVENTS_PUBLISH": "tcp://\(hub):5556", "POSTS_EVENTS_SUBSCRIBE": "tcp://\(hub):5557",
            ]) { $1 }
            environment["POSTS_CURVE_KEY"] = key.map(keys.secret)
            return environment
        }

        // A: the gateway, bound on every address, and a capture of its links
        // (with PostgreSQL on G, A also routes the posts hosts' database
        // traffic: TLS, so it must hold no post's text either).
        let capture = harness.directory + "/a.pcap"
        try harness.start("tcpdump", tcpdump, ["-i", "any", "-n", "-U", "-Z", "root", "-w", capture, "tcp"], wrapper: lab.wrapper("a"))
        try harness.start(
            "gateway", "gateway", [],
            environment: common.merging([
                "POSTS_GATEWAY_BIND": "tcp://*:5555", "POSTS_EVENTS_PUBLISH": "tcp://*:5556", "POSTS_EVENTS_SUBSCRIBE": "tcp://*:5557",
                "POSTS_CURVE_KEY": keys.secret("gateway"), "POSTS_CURVE_ALLOW": keys.allow,
            ]) { $1 }, wrapper: lab.wrapper("a"))
        var cluster: PostgresCluster?
        if onPostgres {
            // G: PostgreSQL, signed in to with a password from the other hosts, over TLS checked against its CA.
            let database = PostgresCluster(
                address: lab.address(of: "g"), wrapper: lab.wrapper("g"), password: "pw\(UUID().uuidString.prefix(8))", tls: true)
            let url = try await database.newDatabase()
            cluster = database
            for name in ["b", "f"] {
                try harness.start(
                    "posts-\(name)", "posts-service", ["--database-url", url.withPassword],
                    environment: host(name, key: "posts-\(name)"), wrapper: lab.wrapper(name))
            }
        } else {
            try harness.start(
                "posts-b", "posts-service", ["--database", harness.databasePath], environment: host("b", key: "posts-b"), wrapper: lab.wrapper("b"))
        }
        try harness.start(
            "search-c", "search-service", ["--sync-interval", "250ms"], environment: host("c", key: "search-c"), wrapper: lab.wrapper("c"))
        try harness.start(
            "search-d", "search-service", ["--sync-interval", "250ms"], environment: host("d", key: "search-d"), wrapper: lab.wrapper("d"))

        // E: the CLI, with its key, or another's, or none.
        func posts(_ arguments: [String], as key: String? = "cli-e", extra: [String: String] = [:]) async throws -> CommandResult {
            try await harness.run(
                "posts", arguments, without: ["POSTS_LOG_LEVEL"], environment: host("e", key: key).merging(extra) { $1 },
                wrapper: lab.wrapper("e"))
        }
        func status() async throws -> JSONValue? { try await posts(["status", "--json"]).json }
        let up = await eventually(within: .seconds(30)) {
            let services = try? await status()?["services"]?.arrayValue
            let processes = { (name: String) in services?.first { $0["name"]?.stringValue == name }?["processes"]?.intValue ?? 0 }
            return processes("posts") == (onPostgres ? 2 : 1) && processes("search") == 2
        }
        #expect(
            up,
            "gateway:\n\(harness.log("gateway"))\nposts:\n\(harness.log("posts-b"))\(harness.log("posts-f"))\nsearch-c:\n\(harness.log("search-c"))\nsearch-d:\n\(harness.log("search-d"))"
        )
        guard up else { return }

        // The tour, from E.
        let word = "quokka" + String(UUID().uuidString.prefix(6)).lowercased().filter(\.isLetter)
        let title = "Across hosts \(word)"
        let created = try await posts(["create", "--title", title, "--content", "secret body \(word)"])
        #expect(created.status == 0, "\(created.stderr)")
        let uid = created.trimmed
        #expect(try await posts(["list"]).stdout.contains(title))
        #expect(try await posts(["show", uid]).stdout.contains("secret body"))
        let edited = try await posts(["edit", uid, "--title", "\(title) edited"])
        #expect(edited.status == 0, "\(edited.stderr)")
        let file = harness.directory + "/import.json"
        try "[{\"title\":\"Imported one \(word)\",\"body\":\"a\"},{\"title\":\"Imported two \(word)\",\"body\":\"b\"}]"
            .write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try await posts(["import", file])
        #expect(imported.status == 0 && imported.stdout.contains("Imported 2"), "\(imported.stderr)")
        let found = await eventually(within: .seconds(15)) {
            let indexes = try? await status()?["searchIndexes"]?.arrayValue
            return indexes?.count == 2 && indexes?.allSatisfy { $0["documents"]?.intValue == 3 && $0["lag"]?.intValue == 0 } == true
        }
        let table = found ? "" : try await posts(["status"]).stdout
        #expect(found, "both search hosts hold every post:\n\(table)")
        let search = try await posts(["search", word])
        #expect(search.status == 0 && search.stdout.contains("edited") && search.stdout.contains("Imported two"), "\(search.stdout)\(search.stderr)")
        let shown = try await posts(["status"])
        #expect(shown.status == 0 && shown.stdout.contains("search"), "\(shown.stderr)")

        // Keys: a stranger's and none are refused; a newcomer is admitted by SIGHUP.
        let stranger = try await posts(["list"], as: "stranger")
        #expect(stranger.status == 6 && stranger.stderr.contains("allow-list") && !stranger.stdout.contains(word), "\(stranger.stderr)")
        let keyless = try await posts(["list", "--insecure"], as: nil, extra: ["POSTS_GATEWAY_KEY": ""])
        #expect(keyless.status == 6 && keyless.stderr.contains("requires CURVE"), "\(keyless.stderr)")
        #expect(try await posts(["list"], as: "newcomer").status == 6)
        try keys.admit("newcomer")
        harness.process("gateway")?.signal(SIGHUP)
        #expect(await eventually { harness.log("gateway").contains("allow-list read again") })
        let newcomer = try await posts(["list"], as: "newcomer")
        #expect(newcomer.status == 0 && newcomer.stdout.contains(word), "\(newcomer.stderr)")

        // D's link is cut: C answers every search.
        try await lab.cut("d")
        for attempt in 0..<6 {
            let answer = try await posts(["search", word, "--timeout", "10"])
            #expect(answer.status == 0 && answer.stdout.contains("Imported one"), "search \(attempt) with D cut: \(answer.stderr)")
        }

        let deleted = try await posts(["delete", uid])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(try await posts(["show", uid]).status == 3)

        // The wire on A held the handshakes, and none of the posts' text.
        // tcpdump writes packets in order, but may lag and drops what it has
        // not written when stopped: wait for one sent after the tour (the
        // heartbeats flow every 250 ms) before stopping it.
        let tourEnded = Date().timeIntervalSince1970
        let written = await eventually(within: .seconds(15)) { (try? await lastPacketTime(capture, tcpdump: tcpdump, harness)) ?? 0 > tourEnded }
        #expect(written, "the capture caught up with the tour")
        harness.process("tcpdump")?.signal(SIGINT)
        _ = await harness.process("tcpdump")?.exit(within: .seconds(5))
        let wire = try Data(contentsOf: URL(fileURLWithPath: capture))
        #expect(wire.count > 20_000, "the capture saw the traffic: \(wire.count) bytes")
        #expect(wire.range(of: Data("CURVE".utf8)) != nil, "ZMTP greetings name the mechanism in the clear")
        for text in [title, word, "secret body", "Imported one"] {
            #expect(wire.range(of: Data(text.utf8)) == nil, "'\(text)' crossed the wire in plaintext")
        }
        if let cluster {
            let logs = harness.log("posts-b") + harness.log("posts-f")
            #expect(logs.contains("postgres://posts@") && !logs.contains(":pw"), "the database password is never logged")
            let status = try await posts(["status", "--json"])
            let handled = status.json?["processes"]?.arrayValue?.filter { $0["service"] == "posts" }.compactMap { $0["handled"]?.intValue }
            #expect(handled?.count == 2 && handled?.allSatisfy { $0 > 0 } == true, "both posts hosts served the tour: \(status.stdout)")
            try await cluster.stop()
        }
    }
}

/// When the last packet in a capture file was seen (seconds since 1970).
private func lastPacketTime(_ capture: String, tcpdump: String, _ harness: ProcessHarness) async throws -> Double? {
    let read = try await harness.run(tcpdump, ["-r", capture, "-n", "-tt", "-q"])
    return read.stdout.split(separator: "\n").last.flatMap { line in line.split(separator: " ").first.flatMap { Double($0) } }
}
