import Foundation
import PostgresPlatform
import Synchronization
import TestSupport
import Testing
import Wire
import ZeroMQ

/// posts-service on PostgreSQL, as several hosts would run it: real
/// processes, a real server.
@Suite("PostgreSQL", .serialized, .timeLimit(.minutes(5)))
struct PostgresTests {
    @Test func test_severalPostsServicesWritingAtOnce_leaveEverySearchWorkerHoldingExactlyThePosts() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        let database = ["--database-url", try await PostgresCluster.shared.newDatabase().description]
        try await harness.startGateway(context: context)
        for index in 1...3 { try await harness.startPostsService("posts-\(index)", sessions: 3, database: database, context: context) }
        // A pull only every minute: what keeps the workers current here is the
        // change notices, which every posts-service publishes after its commits.
        for index in 1...2 { _ = try await harness.startSearchService("search-\(index)", ["--sync-interval", "1m"], context: context) }
        let client = try GatewayClient(endpoint: harness.gatewayEndpoint, context: context, timeout: .seconds(10), retries: 0)

        // 600 saves, then 100 of them deleted and 100 edited, 64 at a time
        // across the nine sessions of three processes.
        let uids = (0..<600).map { _ in UUID() }
        @Sendable func save(_ uid: UUID, _ title: String) async throws {
            _ = try await client.call(
                service: "posts", method: "posts.save",
                params: ["post": ["uid": .string(uid.uuidString), "title": .string(title), "content": "body"]]
            ).get()
        }
        try await forEach(uids.enumerated().map { ($0, $1) }, inFlight: 64) { index, uid in try await save(uid, "post \(index)") }
        let deletes = uids.prefix(100).map { ($0, true) }, edits = uids.dropFirst(100).prefix(100).map { ($0, false) }
        try await forEach(zip(deletes, edits).flatMap { [$0, $1] }, inFlight: 64) { uid, delete in
            if delete {
                _ = try await client.call(service: "posts", method: "posts.delete", params: ["uid": .string(uid.uuidString)]).get()
            } else {
                try await save(uid, "edited")
            }
        }

        // The feed: every sequence once, in order, and exactly the posts left.
        var after = 0, sequences: [Int] = [], kinds: [String: String] = [:]
        while true {
            let page = try await client.call(service: "posts", method: "posts.changes", params: ["after": .number(Double(after)), "limit": 500]).get()
            guard let changes = page["changes"]?.arrayValue, !changes.isEmpty else { break }
            for change in changes {
                sequences.append(change["sequence"]?.intValue ?? -1)
                kinds[change["uid"]?.stringValue ?? ""] = change["kind"]?.stringValue
            }
            after = sequences.last ?? after
        }
        #expect(sequences == sequences.sorted() && Set(sequences).count == sequences.count)
        #expect(sequences.last == 800, "600 saves, 100 deletes and 100 edits: 800 changes")
        #expect(kinds.values.filter { $0 == "upsert" }.count == 500 && kinds.values.filter { $0 == "delete" }.count == 100)

        // Each search worker: every post, no more, fully applied.
        let caughtUp = await eventually(within: .seconds(20)) {
            guard let status = try? await harness.posts(["status", "--json"]).json, let indexes = status["searchIndexes"]?.arrayValue else {
                return false
            }
            return indexes.count == 2
                && indexes.allSatisfy { $0["documents"]?.intValue == 500 && $0["lag"]?.intValue == 0 && $0["applied"]?.intValue == 800 }
        }
        let table = caughtUp ? "" : try await harness.posts(["status"]).stdout
        #expect(caughtUp, "\(table)")
        let edited = try await harness.posts(["search", "edited", "--limit", "200", "--json"])
        #expect(edited.json?["total"]?.intValue == 100, "\(edited.stdout)")
    }

    @Test func test_postsServicesStartingAtOnceOnANewDatabase_allComeUp_andShareOneSchema() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        let url = try await PostgresCluster.shared.newDatabase().description
        try await harness.startGateway(context: context)
        for index in 1...4 { try harness.start("posts-\(index)", "posts-service", ["--database-url", url, "--sessions", "1"]) }
        let client = try GatewayClient(endpoint: harness.gatewayEndpoint, context: context, timeout: .seconds(5), retries: 0)
        #expect(
            await eventually(within: .seconds(20)) { (try? await client.workers(of: "posts")) == 4 },
            "\((1...4).map { harness.log("posts-\($0)") }.joined(separator: "\n"))")
        for index in 1...4 { #expect(harness.process("posts-\(index)")?.terminationStatus == nil, "posts-\(index) still runs") }
        #expect(try await harness.posts(["create", "--title", "one schema"]).status == 0)
        #expect(try await harness.posts(["list"]).stdout.contains("one schema"))
    }

    @Test func test_concurrentEditorsInDifferentProcesses_exactlyOneWins() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        let database = ["--database-url", try await PostgresCluster.shared.newDatabase().description]
        try await harness.startGateway(context: context)
        for index in 1...2 { try await harness.startPostsService("posts-\(index)", sessions: 4, database: database, context: context) }
        let client = try GatewayClient(endpoint: harness.gatewayEndpoint, context: context, timeout: .seconds(10), retries: 0)
        for round in 0..<5 {
            let uid = UUID().uuidString
            let read = try await client.call(
                service: "posts", method: "posts.save", params: ["post": ["uid": .string(uid), "title": "v0", "content": ""]]
            ).get()
            let outcomes = try await withThrowingTaskGroup(of: Result<JSONValue, JSONRPCError>.self) { group in
                for editor in 0..<8 {
                    group.addTask {
                        try await client.call(
                            service: "posts", method: "posts.save",
                            params: [
                                "post": ["uid": .string(uid), "title": .string("editor \(editor)"), "content": ""],
                                "ifUnchangedSince": read["updateDate"] ?? .null,
                            ])
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let won = outcomes.compactMap { try? $0.get() }
            let conflicts = outcomes.filter { if case .failure(let error) = $0 { error.code == .conflict } else { false } }
            #expect(won.count == 1 && conflicts.count == 7, "round \(round): \(outcomes)")
            let stored = try await client.call(service: "posts", method: "posts.get", params: ["uid": .string(uid)]).get()
            #expect(stored["title"] == won.first?["title"], "the winner's edit is what is stored")
        }
    }

    @Test func test_whenPostgresGoesAway_clientsAreToldUnavailable_andServiceComesBackByItself() async throws {
        let cluster = PostgresCluster()  // its own: stopping it must not touch the other tests'
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startGateway(context: context)
        try await harness.startPostsService(sessions: 2, database: ["--database-url", try await cluster.newDatabase().description], context: context)
        #expect(try await harness.posts(["create", "--title", "Before the outage"]).status == 0)

        try await cluster.stop()
        let during = try await harness.posts(["list", "--timeout", "15"])
        #expect(during.status == 4 && during.stderr.contains("unavailable") && during.stderr.contains("PostgreSQL"), "\(during.stderr)")

        try await cluster.restart()
        let back = await eventually(within: .seconds(20)) { (try? await harness.posts(["list"]).stdout.contains("Before the outage")) == true }
        #expect(back, "no restart of posts-service needed: \(harness.log("posts-service"))")
        #expect(try await harness.posts(["create", "--title", "After the outage"]).status == 0)
        #expect(harness.process("posts-service") != nil)
        #expect(await harness.terminate("posts-service") == 0)
    }
}

/// posts-service to PostgreSQL over TLS, and the rule that keeps it there.
@Suite("PostgreSQL over TLS", .serialized, .timeLimit(.minutes(5)))
struct PostgresTLSTests {
    @Test func test_verifiedTLS_works_aServerTheCADidNotSign_isRefused_andPlaintextToAnotherHostNeedsInsecure() async throws {
        let cluster = PostgresCluster(tls: true)
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startGateway(context: context)
        let url = try await cluster.newDatabase()
        #expect(url.tls == .verifyFull)
        try await harness.startPostsService(sessions: 1, database: ["--database-url", url.withPassword], context: context)
        #expect(try await harness.posts(["create", "--title", "over TLS"]).status == 0)
        #expect(await harness.terminate("posts-service") == 0)

        // Another CA's file: the server's certificate is not trusted, and posts-service says so.
        let strangerCA = try await PostgresCluster.makeCertificates(in: try Self.directory(harness, "other-ca"), for: "127.0.0.1")
        let untrusted = url.withPassword.replacingOccurrences(of: url.rootCertificate ?? "", with: strangerCA)
        let refused = try harness.start("untrusted", "posts-service", ["--database-url", untrusted])
        #expect(await refused.exit(within: .seconds(30)) == 1)
        #expect(
            harness.log("untrusted").contains("PostgreSQL") && harness.log("untrusted").lowercased().contains("certificate"),
            "\(harness.log("untrusted"))")

        // No TLS to another host: refused before anything is sent, unless --insecure.
        let plaintext = try harness.start("plaintext", "posts-service", ["--database-url", "postgres://posts@192.0.2.7/posts"])
        #expect(await plaintext.exit(within: .seconds(10)) == 64)
        #expect(
            harness.log("plaintext").contains("sslmode=verify-full") && harness.log("plaintext").contains("--insecure"), "\(harness.log("plaintext"))"
        )
        try await cluster.stop()
    }

    static func directory(_ harness: ProcessHarness, _ name: String) throws -> String {
        let path = "\(harness.directory)/\(name)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
