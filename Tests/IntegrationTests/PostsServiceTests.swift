import EventBus
import Foundation
import Synchronization
import TestSupport
import Testing
import Wire
import ZeroMQ

/// Where posts-service keeps the posts, for tests that hold on both.
enum Store: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgres

    var testDescription: String { rawValue }

    /// posts-service's arguments for a new, empty store.
    func database(_ harness: ProcessHarness) async throws -> [String] {
        switch self {
        case .sqlite: ["--database", harness.databasePath]
        case .postgres: ["--database-url", try await PostgresCluster.shared.newDatabase().description]
        }
    }
}

@Suite("posts-service processes", .serialized, .timeLimit(.minutes(5)))
struct PostsServiceTests {
    private func save(_ client: GatewayClient, uid: UUID, title: String) async throws -> Result<JSONValue, JSONRPCError> {
        try await client.call(
            service: "posts", method: "posts.save",
            params: ["post": ["uid": .string(uid.uuidString), "title": .string(title), "content": "c"]])
    }

    /// Every post, through posts.changes.
    private func storedUIDs(_ client: GatewayClient) async throws -> [String] {
        var uids: [String] = []
        var after: Int = 0
        while true {
            let page = try await client.call(service: "posts", method: "posts.changes", params: ["after": .number(Double(after)), "limit": 500]).get()
            guard case .array(let changes)? = page["changes"], !changes.isEmpty else { return uids }
            uids += changes.compactMap { $0["kind"] == "upsert" ? $0["uid"]?.stringValue : nil }
            after = changes.last?["sequence"]?.intValue ?? after
        }
    }

    @Test func test_everyCommittedWritePublishesAChangeNotice_withTheNewHead() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startPostsSystem(context: context)
        let subscriber = try Socket(context, .subscribe)
        try subscriber.set(.subscribe, Array("posts.changed".utf8))
        try subscriber.connect("ipc://\(harness.directory)/events-subscribe.ipc")
        try await Task.sleep(for: .milliseconds(200))  // let the subscription reach the publisher

        func nextNotice() async throws -> ChangeNotice? {
            guard let message = try await firstValue(within: .seconds(5), { try subscriber.receive(wait: false) }) else { return nil }
            return try JSONDecoder().decode(ChangeNotice.self, from: Data(message.last?.bytes ?? []))
        }
        let created = try await harness.posts(["create", "--title", "Announced"])
        #expect(try await nextNotice() == ChangeNotice(service: "posts", head: 1))
        _ = try await harness.posts(["list"])
        #expect(try await harness.posts(["delete", created.trimmed]).status == 0)
        #expect(try await nextNotice() == ChangeNotice(service: "posts", head: 2), "a read publishes nothing; the delete does")
        #expect(try await harness.posts(["delete", created.trimmed]).status == 3)
        _ = try await harness.posts(["create", "--title", "Next"])
        #expect(try await nextNotice() == ChangeNotice(service: "posts", head: 3), "a delete that found nothing publishes nothing")
    }

    @Test func test_aSaveOverAStaleRead_isAConflict_andTheCLIEditSaysSo() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startPostsSystem(context: context)
        let uid = try await harness.posts(["create", "--title", "Original"]).trimmed
        let client = try GatewayClient(endpoint: harness.gatewayEndpoint, context: context)
        let read = try await client.call(service: "posts", method: "posts.get", params: ["uid": .string(uid)]).get()
        #expect(try await harness.posts(["edit", uid, "--title", "Edited elsewhere"]).status == 0)
        let stale: JSONValue = ["post": ["uid": .string(uid), "title": "Mine", "content": ""], "ifUnchangedSince": read["updateDate"] ?? .null]
        guard case .failure(let error) = try await client.call(service: "posts", method: "posts.save", params: stale) else {
            throw HarnessError("a save over a stale read was taken")
        }
        #expect(error.code == .conflict && error.data?["uid"]?.stringValue == uid)
        #expect(try await harness.posts(["show", uid, "--json"]).json?["title"] == "Edited elsewhere", "nothing was overwritten")
    }

    @Test func test_twoServicesOnOneDatabaseFile_loseNothing() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startGateway(context: context)
        try await harness.startPostsService("posts-1", sessions: 2, context: context)
        try await harness.startPostsService("posts-2", sessions: 2, context: context)
        let client = try GatewayClient(endpoint: harness.gatewayEndpoint, context: context, timeout: .seconds(10))

        let uids = (0..<200).map { _ in UUID() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, uid) in uids.enumerated() {
                group.addTask { _ = try await save(client, uid: uid, title: "post \(index)").get() }
            }
            try await group.waitForAll()
        }
        let stored = try await storedUIDs(client)
        #expect(stored.count == 200)
        #expect(Set(stored) == Set(uids.map(\.uuidString)))
        #expect(try await client.workers(of: "posts") == 4)
    }

    @Test(arguments: Store.allCases)
    func test_whenPostsServiceIsKilledMidStream_everyAcknowledgedSaveSurvives_andNoneIsDoubled(_ store: Store) async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        let database = try await store.database(harness)
        try await harness.startGateway(["--heartbeat-interval", "250ms"], context: context)
        try await harness.startPostsService(sessions: 2, ["--heartbeat-interval", "250ms"], database: database, context: context)
        // Long enough, with retries, to ride out the restart.
        let client = try GatewayClient(endpoint: harness.gatewayEndpoint, context: context, timeout: .seconds(2), retries: 5)

        let acknowledged = Mutex<[UUID]>([])
        let attempted = Mutex<[UUID]>([])
        let stream = Task {
            for index in 0..<400 {
                let uid = UUID()
                attempted.withLock { $0.append(uid) }
                if case .success = try await save(client, uid: uid, title: "save \(index)") {
                    acknowledged.withLock { $0.append(uid) }
                }
            }
        }
        // Killed once 100 saves were acknowledged, whenever that is: a loaded
        // machine took more than 10 s for them on PostgreSQL.
        #expect(await eventually(within: .seconds(90)) { acknowledged.withLock { $0.count } >= 100 })
        await harness.kill("posts-service")
        // Once the gateway has let the dead sessions go, the replacement's are the only ones counted.
        let probe = try GatewayClient(endpoint: harness.gatewayEndpoint, context: context, timeout: .seconds(1))
        #expect(await eventually { (try? await probe.workers(of: "posts")) == 0 })
        try await harness.startPostsService("posts-service-2", sessions: 2, ["--heartbeat-interval", "250ms"], database: database, context: context)
        try await stream.value

        let stored = try await storedUIDs(client)
        let saved = acknowledged.withLock { $0 }
        #expect(saved.count >= 100)
        #expect(Set(saved.map(\.uuidString)).isSubset(of: Set(stored)), "an acknowledged save was lost")
        #expect(stored.count == Set(stored).count, "a post was stored twice")
        #expect(Set(stored).isSubset(of: Set(attempted.withLock { $0 }.map(\.uuidString))))
    }
}
