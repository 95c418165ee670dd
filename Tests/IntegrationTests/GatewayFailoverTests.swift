import Domain
import Foundation
import NetworkPlatform
import TestSupport
import Testing
import ZeroMQ

/// Two gateways side by side on one host, with real processes: workers
/// serve both, a client moves to the other when the one it uses dies or
/// stops answering, and a write that reached both is applied once.
@Suite("Gateway failover, two gateways on one host", .serialized, .timeLimit(.minutes(5)))
struct GatewayFailoverTests {
    /// Gateways a and b, posts-service and one search-service on both.
    private static func start(_ harness: ProcessHarness, context: Context) async throws -> TwoGateways {
        let gateways = TwoGateways(harness: harness)
        try await gateways.start("a", context: context)
        try await gateways.start("b", context: context)
        try await gateways.startWorker(
            "posts-service", "posts-service", service: "posts", sessions: 2, ["--database", harness.databasePath], context: context)
        try await gateways.startWorker(
            "search-service", "search-service", service: "search", sessions: 1, ["--sync-interval", "30s"], context: context)
        return gateways
    }

    @Test func test_failover_workersServeBothGateways_andAfterAKill9TheClientIsServedByTheOther() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        let gateways = try await Self.start(harness, context: context)
        let provider = UseCaseProvider(try NetworkPlatform.connect(endpoints: gateways.endpoints, timeout: .seconds(3)))
        let posts = provider.makePostsUseCase()
        let before = try await posts.save(.stub(title: "before the kill"), key: nil)

        await harness.kill("gateway-a")
        let killed = ContinuousClock.now
        let after = try await posts.save(.stub(title: "zebrafish after the kill"), key: nil)
        print("failover after kill -9 of the gateway in use: \(killed.duration(to: .now)) to the next successful reply")
        #expect(try await posts.post(uid: before.uid) == before)
        #expect(try await posts.post(uid: after.uid) == after)
        // The change notice came through b's bus alone: searchable within the
        // sync interval's 30 s only if notices still arrive.
        let search = provider.makeSearchUseCase()
        #expect(await eventually(within: .seconds(10)) { (try? await search.search("zebrafish", limit: 10, offset: 0).total) == 1 })
    }

    @Test func test_failover_aWriteSentToAStoppedGateway_isAnsweredByTheOther_andAppliedOnceWhenTheStoppedOneWakes() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        let gateways = try await Self.start(harness, context: context)
        let provider = UseCaseProvider(try NetworkPlatform.connect(endpoints: gateways.endpoints, timeout: .seconds(5)))
        let posts = provider.makePostsUseCase()
        let changes = provider.makePostChangesUseCase()
        let read = try await posts.save(.stub(title: "v1"), key: nil)

        // The client's connection to a is up; a stops reading, so the edit
        // waits in its socket until the client gives a up and sends it to b.
        let a = try GatewayClient(endpoint: gateways.endpoint("a"), context: context, timeout: .seconds(2), retries: 0)
        let repliesBefore = try await a.status().totals.replies
        let gatewayA = try #require(harness.process("gateway-a"))
        gatewayA.signal(SIGSTOP)
        let stopped = ContinuousClock.now
        var changed = read
        changed.title = "v2"
        let edited = try await posts.save(changed, key: nil)
        print("failover after SIGSTOP of the gateway in use: \(stopped.duration(to: .now)) to the next successful reply")
        let head = try await changes.head()

        // a wakes and hands its copy of the save to posts-service: the same
        // request key, so it is not applied a second time (no new sequence,
        // no new update date).
        gatewayA.signal(SIGCONT)
        let handedOn = await eventually { ((try? await a.status().totals.replies) ?? 0) > repliesBefore }
        #expect(handedOn, "a never handed its copy on")
        #expect(try await changes.head() == head, "the save was applied a second time")
        #expect(try await posts.post(uid: read.uid) == edited)
    }

    @Test func test_failover_aGatewayThatComesBack_isServedAgainByEveryWorker() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        let gateways = try await Self.start(harness, context: context)
        await harness.kill("gateway-a")
        try await gateways.start("a", context: context)
        let a = try GatewayClient(endpoint: gateways.endpoint("a"), context: context, timeout: .seconds(1), retries: 0)
        let servedAgain = await eventually {
            let posts = (try? await a.workers(of: "posts")) ?? 0
            let search = (try? await a.workers(of: "search")) ?? 0
            return posts == 2 && search == 1
        }
        #expect(servedAgain)
        // Only a: the workers serve it again, and a client given only a is served.
        let posts = UseCaseProvider(try NetworkPlatform.connect(endpoints: [gateways.endpoint("a")], timeout: .seconds(3))).makePostsUseCase()
        _ = try await posts.save(.stub(title: "through a again"), key: nil)
    }

    @Test func test_failover_statusListsEveryGatewayWithItsState_andEachGatewaySaysWhichGatewaysItsWorkersServe() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        let gateways = try await Self.start(harness, context: context)
        let b = try GatewayClient(endpoint: gateways.endpoint("b"), context: context)
        let posts = try #require(await (try b.status()).processes.first { $0.service == "posts" })
        #expect(posts.gateways == gateways.endpoints, "b's mmi.status: \(posts)")

        func status() async throws -> CommandResult {
            try await harness.run("posts", ["status", "--json"], environment: gateways.environment)
        }
        let both = try await status()
        let listed = try #require(both.json?["gateways"]?.arrayValue, "\(both.stdout)\(both.stderr)")
        #expect(listed.map { $0["endpoint"]?.stringValue } == gateways.endpoints)
        #expect(listed.map { $0["up"] } == [true, true])
        #expect(listed.map { $0["inUse"] } == [true, false])

        await harness.kill("gateway-b")
        let oneDown = try await status()
        #expect(oneDown.status == 0, "\(oneDown.stderr)")
        #expect(oneDown.json?["gateways"]?.arrayValue?.map { $0["up"] } == [true, false], "\(oneDown.stdout)")
        let table = try await harness.run("posts", ["status"], environment: gateways.environment)
        #expect(table.stdout.contains("GATEWAY") && table.stdout.contains("down"), "\(table.stdout)")
    }
}
