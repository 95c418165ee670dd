import Foundation
import Synchronization
import TestSupport
import Testing
import Wire
import ZeroMQ

/// gateway + posts-service + search workers, all real processes.
@Suite("Search workers", .serialized, .timeLimit(.minutes(5)))
struct SearchTests {
    @Test func test_postsMadeWithTheCLIAreFoundByEveryWorker_andEditsAndDeletesFollow() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startPostsSystem(context: context)
        var workers: Set<Int32> = []
        for index in 1...3 { workers.insert(try await harness.startSearchService("search-\(index)", sessions: 2, context: context)) }
        let lines = (0..<1000).map { #"{"title":"Post \#($0)","content":"common words and number\#($0)"}"# }.joined(separator: "\n")
        #expect(try await harness.posts(["import", "-"], input: lines).status == 0)
        let client = try GatewayClient(endpoint: harness.gatewayEndpoint, context: context)
        #expect(try await everyWorkerFinds(client, "common words", 1000, workers: workers))

        let uid = try await harness.posts(["create", "--title", "Zebra crossing", "--content", "stripes"]).trimmed
        #expect(try await everyWorkerFinds(client, "zebra", 1, workers: workers))
        #expect(try await harness.posts(["edit", uid, "--title", "Giraffe crossing"]).status == 0)
        #expect(try await everyWorkerFinds(client, "zebra", 0, workers: workers), "an edit changes what is found")
        #expect(try await everyWorkerFinds(client, "giraffe", 1, workers: workers))
        #expect(try await harness.posts(["delete", uid]).status == 0)
        #expect(try await everyWorkerFinds(client, "giraffe", 0, workers: workers), "a delete removes it")

        let cli = try await harness.posts(["search", "giraffe", "crossing"])
        #expect(cli.status == 0 && cli.stdout.contains("No posts match"))
        #expect(try await harness.posts(["search", "common", "number99"]).stdout.contains("Post 99"))

        let status = try #require(try await harness.posts(["status", "--json"]).json)
        guard case .array(let indexes)? = status["searchIndexes"] else { throw HarnessError("no searchIndexes in status: \(status)") }
        #expect(Set(indexes.compactMap { $0["pid"]?.intValue.map(Int32.init) }) == workers, "status shows every search process")
        let processes = try await client.status().processes.filter { $0.service == "search" }
        #expect(Set(processes.compactMap(\.pid)) == workers, "the gateway groups sessions by process")
        #expect(processes.allSatisfy { $0.sessions == 2 })
        #expect(indexes.allSatisfy { $0["lag"] == 0 && $0["documents"] == 1000 })
    }

    @Test func test_twoPostsServicesOnDifferentFilesBehindOneGateway_areNamedInTheWorkersLog_andSearchStaysOnOne() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startGateway(context: context)
        try await harness.startPostsService("posts-a", sessions: 1, database: ["--database", "\(harness.directory)/a.sqlite"], context: context)
        #expect(try await harness.posts(["create", "--title", "Kept in file A"]).status == 0)
        _ = try await harness.startSearchService("search", context: context)
        let client = try GatewayClient(endpoint: harness.gatewayEndpoint, context: context)
        #expect(await eventually(within: .seconds(10)) { (try? await search(client, "kept").total) == 1 })

        // A second posts-service on another file: the worker's pulls now reach either in turn.
        try await harness.startPostsService("posts-b", sessions: 1, database: ["--database", "\(harness.directory)/b.sqlite"], context: context)
        #expect(
            await eventually(within: .seconds(10)) {
                harness.log("search").contains("two posts databases answer for the posts service")
            }, "the search worker names the problem: \(harness.log("search"))")
        // It followed one file and stays on it, instead of rebuilding its index at every pull.
        let resets = harness.log("search").components(separatedBy: "rebuilding the index").count - 1
        try await Task.sleep(for: .seconds(1))
        #expect(harness.log("search").components(separatedBy: "rebuilding the index").count - 1 == resets)
        #expect(resets <= 1)
        #expect(try await search(client, "kept").total <= 1, "search still answers")
    }

    @Test func test_killingAWorkerMidStreamFailsNoQuery_andALateWorkerCatchesUp() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startGateway(["--heartbeat-interval", "250ms"], context: context)
        // Heartbeat settings must agree, or the gateway expires the slower side.
        try await harness.startPostsService(sessions: 2, ["--heartbeat-interval", "250ms"], context: context)
        var workers: Set<Int32> = []
        for index in 1...3 {
            workers.insert(try await harness.startSearchService("search-\(index)", ["--heartbeat-interval", "250ms"], context: context))
        }
        let lines = (0..<200).map { #"{"title":"Item \#($0)","content":"needle"}"# }.joined(separator: "\n")
        #expect(try await harness.posts(["import", "-"], input: lines).status == 0)
        let client = try GatewayClient(endpoint: harness.gatewayEndpoint, context: context, timeout: .seconds(2), retries: 3)
        #expect(try await everyWorkerFinds(client, "needle", 200, workers: workers))

        let failures = Atomic<Int>(0)
        let stream = Task {
            for _ in 0..<300 {
                if (try? await search(client, "needle").total) != 200 { failures.add(1, ordering: .relaxed) }
            }
        }
        try await Task.sleep(for: .milliseconds(100))
        await harness.kill("search-2")
        await stream.value
        #expect(failures.load(ordering: .relaxed) == 0, "no query failed while a worker died")

        let late = try await harness.startSearchService("search-4", ["--heartbeat-interval", "250ms"], context: context)
        #expect(try await everyWorkerFinds(client, "needle", 200, workers: [late]), "a new worker builds its index from zero")
    }

    @Test func test_afterTheGatewayRestarts_andNoticesAreLost_workersStillConverge() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startGateway(["--heartbeat-interval", "250ms"], context: context)
        try await harness.startPostsService(sessions: 2, ["--heartbeat-interval", "250ms"], context: context)
        let worker = try await harness.startSearchService("search-1", ["--heartbeat-interval", "250ms"], context: context)
        await harness.kill("gateway")
        // While the gateway is down, the write below cannot be announced or pulled.
        try await harness.startGateway(["--heartbeat-interval", "250ms"], name: "gateway-2", context: context)
        let probe = try GatewayClient(endpoint: harness.gatewayEndpoint, context: context, timeout: .seconds(1))
        #expect(
            await eventually {
                let posts = (try? await probe.workers(of: "posts")) ?? 0
                let search = (try? await probe.workers(of: "search")) ?? 0
                return posts >= 2 && search >= 1
            })
        #expect(try await harness.posts(["create", "--title", "After the restart"]).status == 0)
        let client = try GatewayClient(endpoint: harness.gatewayEndpoint, context: context)
        #expect(try await everyWorkerFinds(client, "restart", 1, workers: [worker]))
    }

    @Test func test_aPostsDatabaseMadeAnew_isNoticed_andTheIndexRebuilt() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startPostsSystem(context: context)
        let worker = try await harness.startSearchService("search-1", context: context)
        for index in 1...3 { #expect(try await harness.posts(["create", "--title", "Old post \(index)"]).status == 0) }
        let client = try GatewayClient(endpoint: harness.gatewayEndpoint, context: context)
        #expect(try await everyWorkerFinds(client, "old", 3, workers: [worker]))

        #expect(await harness.terminate("posts-service") == 0)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: harness.databasePath + suffix) }
        // The new database gets past the old head (3) before the worker hears of it.
        let lines = (1...5).map { #"{"title":"Fresh start \#($0)","content":""}"# }.joined(separator: "\n")
        #expect(try await harness.posts(["import", "--local", harness.databasePath, "-"], input: lines).status == 0)
        try await harness.startPostsService("posts-service-2", context: context)
        #expect(try await everyWorkerFinds(client, "fresh", 5, workers: [worker]), "every post of the new database, the first ones too")
        #expect(try await everyWorkerFinds(client, "old", 0, workers: [worker]), "posts of the old database are gone from the index")
    }

    @Test func test_underAFrameLimitSmallerThanAPage_pagesAreCutToFit_andWorkersStillCatchUp() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        // Control characters are escaped as \u0001 in JSON: each post is about 18 KB on the wire.
        let padding = String(repeating: "\\u0001", count: 3000)
        let lines = (0..<40).map { #"{"title":"Padded \#($0)","content":"needle \#(padding)"}"# }.joined(separator: "\n")
        #expect(try await harness.posts(["import", "--local", harness.databasePath, "-"], input: lines).status == 0)
        // Its ranking kept beside the file: the next `posts search --local` takes it up instead of building it.
        #expect(FileManager.default.fileExists(atPath: harness.databasePath + "-search-postings"))
        try await harness.startGateway(["--max-frame-size", "65536"], context: context)
        try await harness.startPostsService(sessions: 2, ["--max-frame-size", "65536"], context: context)
        let client = try GatewayClient(endpoint: harness.gatewayEndpoint, context: context)

        var listed = 0, pages = 0
        var cursor: JSONValue = .null
        repeat {
            let page = try await client.call(service: "posts", method: "posts.list", params: ["limit": 500, "cursor": cursor]).get()
            guard case .array(let posts)? = page["posts"] else { throw HarnessError("no posts in \(page)") }
            (listed, pages, cursor) = (listed + posts.count, pages + 1, page["nextCursor"] ?? .null)
        } while cursor != .null
        #expect(listed == 40 && pages > 1, "every post listed, in pages cut to the 64 KiB limit")

        let worker = try await harness.startSearchService("search-1", context: context)
        #expect(try await everyWorkerFinds(client, "needle", 40, workers: [worker]), "the worker pulled every change in pages that fit")

        let huge = #"{"title":"Too big","content":"\#(String(repeating: "\\u0001", count: 20_000))"}"#
        #expect(try await harness.posts(["import", "--local", harness.databasePath, "-"], input: huge).status == 0)
        guard case .failure(let error) = try await client.call(service: "posts", method: "posts.list", params: ["limit": 1]) else {
            throw HarnessError("a 120 KB post fitted a 64 KiB frame")
        }
        #expect(error.code == .tooLarge, "a single post over the limit is a clear error, not a lost connection")
    }
}
