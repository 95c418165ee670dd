import Foundation
import Majordomo
import ServiceSupport
import TestSupport
import Testing
import Wire
import ZeroMQ

/// A port nothing listens on now (the kernel's pick, released at once).
func freeTCPPort() throws -> Int {
    let socket = try Socket(try Context(), .router)
    try socket.bind("tcp://127.0.0.1:*")
    let endpoint = try #require(socket.lastEndpoint)
    socket.close()
    return try #require(Int(endpoint.split(separator: ":").last ?? ""))
}

/// Keys made by `posts keys generate`, as an operator would.
struct KeyRing {
    let directory: String
    let allow: String

    init(_ harness: ProcessHarness, names: [String], allowed: [String]) async throws {
        directory = harness.directory + "/keys"
        allow = harness.directory + "/allow"
        try FileManager.default.createDirectory(atPath: allow, withIntermediateDirectories: true)
        for name in names {
            let made = try await harness.run("posts", ["keys", "generate", name, "--dir", directory])
            #expect(made.status == 0 && Curve.isKey(made.trimmed), "\(made.stderr)")
        }
        for name in allowed { try admit(name) }
    }

    func secret(_ name: String) -> String { "\(directory)/\(name).key_secret" }
    func publicFile(_ name: String) -> String { "\(directory)/\(name).key" }
    func admit(_ name: String) throws { try FileManager.default.copyItem(atPath: publicFile(name), toPath: "\(allow)/\(name).key") }
    func pair(_ name: String) throws -> Curve.KeyPair { try KeyFiles.readSecret(secret(name)) }
}

/// Everything over tcp:// on this host, with CURVE: a gateway admitting the
/// allow-list, posts-service with its own key, and the CLI with keys or not.
@Suite("Security over tcp", .serialized, .timeLimit(.minutes(5)))
struct SecurityTests {
    @Test func test_bindingTcpWithoutAKey_refusesToStart_sayingHowToMakeKeys() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let gateway = try harness.start("gateway", "gateway", ["--bind", "tcp://127.0.0.1:\(try freeTCPPort())"])
        #expect(await gateway.exit(within: .seconds(10)) == 64)
        #expect(harness.log("gateway").contains("posts keys generate") && harness.log("gateway").contains("--insecure"), "\(harness.log("gateway"))")
        let worker = try harness.start("posts", "posts-service", ["--gateway", "tcp://127.0.0.1:1", "--database", harness.databasePath])
        #expect(await worker.exit(within: .seconds(10)) == 64)
        #expect(harness.log("posts").contains("POSTS_CURVE_KEY"), "\(harness.log("posts"))")
        let cli = try await harness.posts(["list", "--gateway", "tcp://127.0.0.1:1"])
        #expect(cli.status == 64 && cli.stderr.contains("POSTS_GATEWAY_KEY"), "\(cli.stderr)")
    }

    @Test func test_onlyKeysOnTheAllowListAreServed_refusalsAreLoggedOnce_andSIGHUPAdmitsANewKey() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let keys = try await KeyRing(harness, names: ["gateway", "posts", "cli", "stranger", "newcomer"], allowed: ["posts", "cli"])
        let (port, events) = (try freeTCPPort(), try freeTCPPort())
        let endpoint = "tcp://127.0.0.1:\(port)"
        let publish = "tcp://127.0.0.1:\(events)", subscribe = "tcp://127.0.0.1:\(try freeTCPPort())"
        let bus = ["POSTS_EVENTS_PUBLISH": publish, "POSTS_EVENTS_SUBSCRIBE": subscribe, "POSTS_GATEWAY_KEY": keys.publicFile("gateway")]
        try harness.start(
            "gateway", "gateway", ["--bind", endpoint, "--curve-key", keys.secret("gateway"), "--curve-allow", keys.allow],
            environment: bus)
        try harness.start(
            "posts", "posts-service", ["--gateway", endpoint, "--database", harness.databasePath, "--curve-key", keys.secret("posts")],
            environment: bus)
        func posts(_ arguments: [String], as name: String?) async throws -> CommandResult {
            var environment = bus
            if let name { environment["POSTS_CURVE_KEY"] = keys.secret(name) } else { environment["POSTS_GATEWAY_KEY"] = nil }
            return try await harness.run(
                "posts", arguments + ["--gateway", endpoint, "--timeout", "5"], without: ["POSTS_LOG_LEVEL", "POSTS_GATEWAY_KEY"],
                environment: environment)
        }
        let created = try await posts(["create", "--title", "Over CURVE"], as: "cli")
        #expect(created.status == 0, "\(created.stderr)\n\(harness.log("gateway"))")
        #expect(try await posts(["list"], as: "cli").stdout.contains("Over CURVE"))

        for _ in 0..<3 {
            let stranger = try await posts(["list"], as: "stranger")
            #expect(stranger.status == 6 && stranger.stderr.contains("allow-list") && !stranger.stdout.contains("Over CURVE"), "\(stranger.stderr)")
        }
        let fingerprint = Curve.fingerprint(try keys.pair("stranger").publicKey)
        let refusals = harness.log("gateway").components(separatedBy: "\n").filter { $0.contains("refused a peer") }
        #expect(refusals.count == 1 && refusals[0].contains(fingerprint) && refusals[0].contains("127.0.0.1"), "\(refusals)")
        #expect(!harness.log("gateway").contains(try keys.pair("gateway").secretKey), "keys are never logged")

        // Several at once: each is refused and says so (a client once blocked
        // forever sending while its refused connection was down).
        try await withThrowingTaskGroup(of: CommandResult.self) { group in
            for _ in 0..<6 { group.addTask { try await posts(["list", "--insecure"], as: nil) } }
            for try await keyless in group {
                #expect(keyless.status == 6 && keyless.stderr.contains("requires CURVE"), "\(keyless.stderr)")
            }
        }

        // A worker whose key is refused says so in its log, and serves nothing.
        try harness.start(
            "posts-stranger", "posts-service",
            [
                "--gateway", endpoint, "--database", harness.databasePath,
                "--curve-key", keys.secret("stranger"),
            ], environment: bus)
        #expect(
            await eventually { harness.log("posts-stranger").contains("the gateway will not take this worker") },
            "\(harness.log("posts-stranger"))")
        #expect(harness.log("posts-stranger").contains("allow-list"))
        #expect(await harness.terminate("posts-stranger") == 0)

        #expect(try await posts(["list"], as: "newcomer").status == 6)
        try keys.admit("newcomer")
        harness.process("gateway")?.signal(SIGHUP)
        #expect(await eventually { harness.log("gateway").contains("allow-list read again") })
        let admitted = try await posts(["list"], as: "newcomer")
        #expect(admitted.status == 0 && admitted.stdout.contains("Over CURVE"), "\(admitted.stderr)")

        // docs/examples/curve_client.py: pyzmq, with the same key files.
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/examples/curve_client.py")
            .standardized.path
        let python = try await harness.run("/usr/bin/env", ["python3", example, endpoint, keys.publicFile("gateway"), keys.secret("cli")])
        #expect(python.status == 0 && python.trimmed == "Over CURVE", "\(python.stdout)\(python.stderr)")
        let refused = try await harness.run("/usr/bin/env", ["python3", example, endpoint, keys.publicFile("gateway"), keys.secret("stranger")])
        #expect(refused.status == 1 && refused.stderr.contains("allow-list"), "\(refused.stderr)")
        #expect(await harness.terminate("gateway") == 0, "SIGHUP is not a stop, and SIGTERM still is")
    }
}

/// Files the posts live in, and text from peers on the way to a terminal.
@Suite("Owner-only files and escaped text", .timeLimit(.minutes(5)))
struct PrivacyTests {
    func mode(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_mode & 0o777) : -1
    }

    @Test func test_theDatabaseItsWALFilesAndItsDirectory_areOwnerOnly_whateverTheUmask() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let database = harness.directory + "/data/posts/posts.sqlite"
        let permissive = ["/bin/sh", "-c", "umask 000; exec \"$@\"", "sh"]
        // posts-service holds the database open, so its -wal and -shm stay to be looked at.
        try harness.start("posts", "posts-service", ["--database", database], wrapper: permissive)
        #expect(await eventually { FileManager.default.fileExists(atPath: database + "-shm") }, "\(harness.log("posts"))")
        #expect(mode(harness.directory + "/data") == 0o700 && mode(harness.directory + "/data/posts") == 0o700)
        for file in [database, database + "-wal", database + "-shm"] { #expect(mode(file) == 0o600, "\(file)") }
        // The CLI on a file of its own: the file and its search index.
        let local = harness.directory + "/mine/posts.sqlite"
        let made = try await harness.run("posts", ["create", "--local", local, "--title", "private"], wrapper: permissive)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(mode(harness.directory + "/mine") == 0o700)
        for file in [local, local + "-search"] { #expect(mode(file) == 0o600, "\(file)") }
    }

    @Test func test_aDatabaseOthersMayRead_isWarnedAboutWhenPostsServiceStarts() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        #expect(try await harness.posts(["create", "--local", harness.databasePath, "--title", "x"]).status == 0)
        chmod(harness.databasePath, 0o644)
        try harness.start("posts", "posts-service", ["--database", harness.databasePath])
        #expect(await eventually { harness.log("posts").contains("other users may read the posts") }, "\(harness.log("posts"))")
        #expect(mode(harness.databasePath) == 0o644, "warned about, not changed behind the operator's back")
    }

    @Test func test_aTitleWithEscapeSequences_isShownAsText_neverObeyed() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let title = "\u{1B}[2J\u{1B}]0;pwned\u{07}Clear\u{9B}31m\nscreen \u{202E}txt"
        let made = try await harness.posts(["create", "--local", harness.databasePath, "--title", title, "--content", "body \u{1B}[31mred\nline two"])
        let uid = made.trimmed
        #expect(made.status == 0, "\(made.stderr)")
        for arguments in [["list"], ["show", uid], ["search", "clear"]] {
            let shown = try await harness.posts(arguments + ["--local", harness.databasePath])
            #expect(shown.status == 0, "\(arguments): \(shown.stderr)")
            #expect(
                !shown.stdout.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{9B}" || $0 == "\u{202E}" },
                "\(arguments): \(shown.stdout.debugDescription)")
            #expect(shown.stdout.contains("\\u{1B}[2J"), "\(arguments): \(shown.stdout)")
        }
        let shown = try await harness.posts(["show", uid, "--local", harness.databasePath])
        #expect(shown.stdout.contains("body \\u{1B}[31mred\nline two"), "content keeps its lines: \(shown.stdout)")
        let json = try await harness.posts(["show", uid, "--local", harness.databasePath, "--json"])
        #expect(json.json?["title"]?.stringValue == title, "--json carries the text exactly, JSON-escaped")
    }
}

/// What a peer can make the gateway log or remember.
@Suite("Gateway bounds", .serialized, .timeLimit(.minutes(5)))
struct GatewayBoundsTests {
    @Test func test_aReadyWhoseNameHoldsANewline_getsDisconnect_andForgesNoLogLine() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startGateway(context: context)
        let peer = try RawPeer(context, endpoint: harness.gatewayEndpoint)
        try peer.send(["", MDP.workerHeader, MDP.Command.ready.frame, "echo\n2026-01-01T00:00:00Z critical gateway: forged \u{1B}[2J"])
        #expect(try await peer.receive() == MDP.disconnect)
        #expect(await eventually { harness.log("gateway").contains("protocol violation") })
        let lines = harness.log("gateway").components(separatedBy: "\n")
        #expect(!lines.contains { $0.hasPrefix("2026-01-01T00:00:00Z") || $0.contains("\u{1B}") }, "\(lines)")
    }

    @Test func test_aFloodOfMalformedMessages_costsALineASecond_withCountsOfTheRest() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startGateway(context: context)
        let peer = try RawPeer(context, endpoint: harness.gatewayEndpoint)
        for index in 0..<5_000 { try peer.send(["", "HTTP/1.1", Frame("GET /\(index)")]) }
        // Until the summary, which comes a second after the flood's last
        // message: beside a full run on two cores the gateway was still
        // reading the flood after 5 s (4,755 of 5,000 counted then).
        #expect(await eventually(within: .seconds(30)) { harness.log("gateway").contains("more left out") }, "\(harness.log("gateway").suffix(2000))")
        let lines = harness.log("gateway").components(separatedBy: "\n").filter { $0.contains("malformed message dropped") }
        // A line for a message, at most one a second, each with the count
        // of those left out before it; then a summary ("more left out")
        // with the count of the last second's. However long the flood
        // takes on a loaded machine, the counts add up to every message.
        let summaries = lines.filter { $0.contains("more left out") }
        let logged = lines.filter { !$0.contains("more left out") }
        #expect(summaries.count == 1, "\(lines)")
        let times = logged.compactMap { line in line.split(separator: " ").first.flatMap { logTimestamp(String($0)) } }
        #expect(times.count == logged.count && zip(times, times.dropFirst()).allSatisfy { $1.timeIntervalSince($0) >= 0.99 }, "\(logged)")
        func suppressed(_ line: String) -> Int {
            line.components(separatedBy: "suppressed=").dropFirst().first.flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
        }
        let counted = logged.count + lines.map(suppressed).reduce(0, +)
        #expect(counted == 5_000, "\(lines)")
    }

    @Test func test_throwawayServiceNames_areForgottenAfterTheQueueWait() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startGateway(["--queue-wait", "2s", "--heartbeat-interval", "200ms"], context: context)
        let peer = try RawPeer(context, endpoint: harness.gatewayEndpoint)
        for index in 0..<300 {
            try peer.send(MDP.ready(service: Frame("throwaway-\(index)")))
            try peer.send(MDP.disconnect)
        }
        // That they were registered is read from the gateway's log, which
        // stays: a status request could come after the queue wait on a
        // loaded machine and find them gone already (CI did, once).
        #expect(
            await eventually { harness.log("gateway").components(separatedBy: "worker ready").count > 300 },
            "every one was registered: \(harness.log("gateway").suffix(2000))")
        let client = try GatewayClient(endpoint: harness.gatewayEndpoint, context: context)
        #expect(await eventually(within: .seconds(5)) { (try? await client.status().services.contains { $0.name.hasPrefix("throwaway-") }) == false })
    }
}

/// The time at the start of a gateway log line (ISO 8601, milliseconds, UTC).
private func logTimestamp(_ text: String) -> Date? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.date(from: text)
}
