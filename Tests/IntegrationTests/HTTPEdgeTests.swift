import Foundation
import NIOHTTP1
import Testing
import Wire
import ZeroMQ

/// The real `posts-http` in front of the real gateway and services, asked
/// over real HTTP: every route, the statuses of its refusals, and the
/// guarantees in HTTP's terms (ETag and If-Match, Idempotency-Key,
/// Request-Timeout, problem+json).
@Suite("posts-http end to end", .serialized, .timeLimit(.minutes(5)))
struct HTTPEdgeTests {
    /// A gateway, posts-service and the edge.
    private static func started(_ harness: ProcessHarness, search: Bool = false) async throws -> HTTPEdge {
        let context = try Context()
        try await harness.startPostsSystem(context: context)
        if search { _ = try await harness.startSearchService("search", context: context) }
        return try await harness.startHTTPEdge()
    }

    private static func post(_ title: String, _ content: String = "") -> String {
        #"{"title":"\#(title)","content":"\#(content)"}"#
    }

    @Test func test_everyRouteAnswersAsTheDocumentSays() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let edge = try await Self.started(harness, search: true)

        #expect(try await edge.request(.GET, "/healthz").json?["status"] == "ok")
        #expect(try await edge.request(.GET, "/readyz").status == 200)

        let created = try await edge.request(.POST, "/posts", json: Self.post("First over HTTP", "Hello from curl"))
        #expect(created.status == 201)
        let uid = try #require(created.json?["uid"]?.stringValue)
        #expect(created.header("Location") == "/posts/\(uid)")
        let tag = try #require(created.header("ETag"))
        #expect(tag.hasPrefix("\"") && tag.hasSuffix("\""), "a strong ETag: \(tag)")

        let read = try await edge.request(.GET, "/posts/\(uid)")
        #expect(read.status == 200 && read.json?["title"] == "First over HTTP" && read.json?["content"] == "Hello from curl")
        #expect(read.header("ETag") == tag)
        #expect(try await edge.request(.GET, "/posts/\(uid)", headers: [("If-None-Match", tag)]).status == 304)

        for index in 2...3 { #expect(try await edge.request(.POST, "/posts", json: Self.post("Post \(index)")).status == 201) }
        let page = try await edge.request(.GET, "/posts?limit=2")
        #expect(page.status == 200 && page.json?["posts"]?.arrayValue?.count == 2)
        let link = try #require(page.header("Link"), "a page with more after it links to the next")
        #expect(link.hasSuffix(#">; rel="next""#))
        let next = String(link.dropFirst().prefix { $0 != ">" })
        let rest = try await edge.request(.GET, next)
        #expect(rest.json?["posts"]?.arrayValue?.count == 1 && rest.header("Link") == nil, "\(next): \(rest.body)")
        #expect(try await edge.request(.GET, "/posts/count").json?["count"]?.intValue == 3)

        // PUT: a uid of the client's own creates (201), then replaces (200).
        let chosen = UUID().uuidString
        let put = try await edge.request(.PUT, "/posts/\(chosen)", json: Self.post("Put here"))
        #expect(put.status == 201 && put.header("Location") == "/posts/\(chosen)")
        let replaced = try await edge.request(.PUT, "/posts/\(chosen)", json: Self.post("Put again", "new content"))
        #expect(replaced.status == 200 && replaced.json?["title"] == "Put again" && replaced.json?["createDate"] == put.json?["createDate"])

        let patched = try await edge.request(
            .PATCH, "/posts/\(uid)", json: #"{"title":"First, patched"}"#, contentType: "application/merge-patch+json")
        #expect(patched.status == 200 && patched.json?["title"] == "First, patched" && patched.json?["content"] == "Hello from curl")
        #expect(patched.header("ETag") != tag, "an edit gives the post a new ETag")

        let found = try #require(
            await firstValue(within: .seconds(10), every: .milliseconds(100)) { () -> JSONValue? in
                let answer = try? await edge.request(.GET, "/search?q=patched")
                return answer?.json?["total"]?.intValue == 1 ? answer?.json : nil
            }, "the search worker finds the patched title")
        #expect(found["hits"]?.arrayValue?.first?["uid"]?.stringValue == uid)
        #expect(found["exact"] == true)
        #expect(found["hits"]?.arrayValue?.first?["highlights"]?.arrayValue?.isEmpty == false)

        #expect(try await edge.request(.DELETE, "/posts/\(uid)").status == 204)
        let gone = try await edge.request(.DELETE, "/posts/\(uid)")
        #expect(gone.status == 404 && gone.header("Content-Type")?.hasPrefix("application/problem+json") == true)
        #expect(try await edge.request(.GET, "/posts/\(uid)").status == 404)

        let status = try await edge.request(.GET, "/status")
        #expect(status.status == 200)
        #expect(status.json?["services"]?.arrayValue?.contains { $0["name"] == "posts" } == true, "\(status.body)")
        #expect(status.json?["searchIndexes"]?.arrayValue?.count == 1, "\(status.body)")
        // Each method's traffic, as `posts status --json` shows it: the reads and writes above were counted.
        let methods = status.json?["methods"]?.arrayValue ?? []
        let get = methods.first { $0["service"] == "posts" && $0["method"] == "posts.get" }
        #expect((get?["requests"]?.intValue ?? 0) >= 2, "\(status.body)")
        // The gateway the edge was given, answering and in use.
        let gateways = status.json?["gateways"]?.arrayValue ?? []
        #expect(gateways.count == 1 && gateways.first?["up"] == true && gateways.first?["inUse"] == true, "\(status.body)")

        // The document served is the one the server was generated from.
        let served = try await edge.request(.GET, "/openapi.json")
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Services/PostsHTTP/openapi.json")
        let expected = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: source))
        #expect(served.json == expected)
    }

    @Test func test_refusalsAreProblemsNamingWhatWasWrong() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let edge = try await Self.started(harness)

        func expectProblem(_ answer: HTTPEdge.Answer, _ status: Int, field: String? = nil, _ comment: Comment? = nil) {
            #expect(answer.status == status, comment)
            #expect(answer.header("Content-Type")?.hasPrefix("application/problem+json") == true, "\(answer.body)")
            #expect(answer.json?["status"]?.intValue == status && answer.json?["type"]?.stringValue?.hasPrefix("urn:posts:problem:") == true)
            #expect(answer.json?["title"]?.stringValue?.isEmpty == false && answer.json?["detail"]?.stringValue?.isEmpty == false)
            if let field { #expect(answer.field == field, "\(answer.body)") }
        }
        expectProblem(try await edge.request(.GET, "/posts/not-a-uid"), 400, field: "uid")
        expectProblem(try await edge.request(.GET, "/posts/\(UUID().uuidString)"), 404)
        expectProblem(try await edge.request(.GET, "/posts?limit=0"), 400, field: "limit")
        expectProblem(try await edge.request(.GET, "/posts?limit=many"), 400)
        expectProblem(try await edge.request(.GET, "/posts?cursor=nonsense"), 400, field: "cursor")
        expectProblem(try await edge.request(.POST, "/posts", json: Self.post("   ")), 422, field: "/title")
        expectProblem(try await edge.request(.POST, "/posts", json: Self.post(String(repeating: "t", count: 201))), 422, field: "/title")
        expectProblem(try await edge.request(.POST, "/posts", json: #"{"title":5}"#), 400, field: "/title")
        expectProblem(try await edge.request(.POST, "/posts", json: #"{"content":"no title"}"#), 400, field: "/title")
        expectProblem(try await edge.request(.POST, "/posts", json: "{not json"), 400)
        expectProblem(try await edge.request(.POST, "/posts", json: Self.post("x"), contentType: "text/plain"), 415)
        expectProblem(
            try await edge.request(.POST, "/posts", headers: [("Idempotency-Key", "has spaces")], json: Self.post("x")), 400, field: "Idempotency-Key"
        )
        expectProblem(try await edge.request(.GET, "/posts", headers: [("Request-Timeout", "soon")]), 400, field: "Request-Timeout")
        expectProblem(try await edge.request(.GET, "/posts", headers: [("Request-Timeout", "-1")]), 400, field: "Request-Timeout")
        expectProblem(try await edge.request(.GET, "/posts", headers: [("Request-Timeout", "0")]), 504, "a budget of 0 is spent before it starts")
        expectProblem(try await edge.request(.GET, "/search?q=\(String(repeating: "q", count: 501))"), 400, field: "q")
        expectProblem(try await edge.request(.GET, "/search?q=a&offset=10001"), 400, field: "offset")
        expectProblem(try await edge.request(.GET, "/nowhere"), 404)
        let huge = Self.post("Too long", String(repeating: "x", count: (1 << 20) + 1))
        expectProblem(try await edge.request(.POST, "/posts", json: huge), 413, "a body over 1 MiB is refused before it is read whole")
        let wrongMethod = try await edge.request(.DELETE, "/posts")
        expectProblem(wrongMethod, 405)
        #expect(wrongMethod.header("Allow") == "GET, POST")
        #expect(try await edge.request(.GET, "/posts/count").json?["count"]?.intValue == 0, "no refused write saved anything")
    }

    @Test func test_ifMatch_twoEditsOfOneRead_theSecondIsRefusedAndSavesNothing() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let edge = try await Self.started(harness)
        let created = try await edge.request(.POST, "/posts", json: Self.post("Shared", "as read"))
        let uid = try #require(created.json?["uid"]?.stringValue)
        let tag = try #require(created.header("ETag"))

        // Two people read the same version and both edit it.
        let first = try await edge.request(
            .PATCH, "/posts/\(uid)", headers: [("If-Match", tag)], json: #"{"content":"first edit"}"#, contentType: "application/merge-patch+json")
        #expect(first.status == 200)
        let second = try await edge.request(.PUT, "/posts/\(uid)", headers: [("If-Match", tag)], json: Self.post("Shared", "second edit"))
        #expect(second.status == 412 && second.json?["type"] == "urn:posts:problem:changed", "\(second.body)")
        let third = try await edge.request(
            .PATCH, "/posts/\(uid)", headers: [("If-Match", tag)], json: #"{"title":"Third"}"#, contentType: "application/merge-patch+json")
        #expect(third.status == 412)
        let stale = try await edge.request(.DELETE, "/posts/\(uid)", headers: [("If-Match", tag)])
        #expect(stale.status == 412, "a delete of a stale read deletes nothing: \(stale.body)")
        let now = try await edge.request(.GET, "/posts/\(uid)")
        #expect(now.json?["content"] == "first edit" && now.json?["title"] == "Shared", "only the first edit landed")

        // `*` matches whatever the post is; a post that is not there matches nothing.
        let current = try #require(now.header("ETag"))
        #expect(try await edge.request(.PUT, "/posts/\(uid)", headers: [("If-Match", "*")], json: Self.post("Any version")).status == 200)
        #expect(try await edge.request(.PUT, "/posts/\(UUID().uuidString)", headers: [("If-Match", "*")], json: Self.post("No")).status == 412)
        #expect(try await edge.request(.DELETE, "/posts/\(uid)", headers: [("If-Match", current)]).status == 412, "the PUT changed it")
        let fresh = try #require(try await edge.request(.GET, "/posts/\(uid)").header("ETag"))
        #expect(try await edge.request(.DELETE, "/posts/\(uid)", headers: [("If-Match", fresh)]).status == 204)
        #expect(try await edge.request(.GET, "/posts/count").json?["count"]?.intValue == 0)
    }

    @Test func test_idempotencyKey_aRetriedPostCreatesOnce_andAnotherBodyIs422() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let edge = try await Self.started(harness)
        let key = [("Idempotency-Key", "order-\(UUID().uuidString)")]

        let first = try await edge.request(.POST, "/posts", headers: key, json: Self.post("Once", "only once"))
        let again = try await edge.request(.POST, "/posts", headers: key, json: Self.post("Once", "only once"))
        #expect(first.status == 201 && again.status == 201)
        #expect(again.json == first.json, "the retry is answered as the first time")
        #expect(again.header("Location") == first.header("Location") && again.header("ETag") == first.header("ETag"))
        #expect(try await edge.request(.GET, "/posts/count").json?["count"]?.intValue == 1)

        let other = try await edge.request(.POST, "/posts", headers: key, json: Self.post("Once", "something else"))
        #expect(other.status == 422 && other.field == "Idempotency-Key", "\(other.body)")
        #expect(try await edge.request(.GET, "/posts/count").json?["count"]?.intValue == 1)

        // A delete sent again under its key says what the first said.
        let uid = try #require(first.json?["uid"]?.stringValue)
        let deleteKey = [("Idempotency-Key", "delete-\(uid)")]
        #expect(try await edge.request(.DELETE, "/posts/\(uid)", headers: deleteKey).status == 204)
        #expect(try await edge.request(.DELETE, "/posts/\(uid)", headers: deleteKey).status == 204)
        #expect(try await edge.request(.DELETE, "/posts/\(uid)").status == 404)
    }

    @Test func test_budgetsAndOutages_504_503_retryAfter() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let edge = try await Self.started(harness)
        let uid = try #require(try await edge.request(.POST, "/posts", json: Self.post("Waiting")).json?["uid"]?.stringValue)

        // A stopped worker answers nothing: the budget the request named runs out.
        let worker = try #require(harness.process("posts-service"))
        worker.signal(SIGSTOP)
        // Once it has stopped: beside a full run the signal once landed
        // after the request, which was then answered.
        #expect(await eventually(within: .seconds(10)) { ProcStat.isStopped(worker.processIdentifier) }, "posts-service stopped")
        let started = ContinuousClock.now
        let late = try await edge.request(.GET, "/posts/\(uid)", headers: [("Request-Timeout", "0.5")])
        let waited = started.duration(to: .now)
        worker.signal(SIGCONT)
        #expect(late.status == 504 && late.json?["type"] == "urn:posts:problem:timeout", "\(late.body)")
        #expect(waited < .seconds(5), "the edge gave up at the request's budget, not its own 10 s: \(waited)")

        // No worker at all: not ready, and each request says when to try again.
        _ = await harness.terminate("posts-service")
        let unready = try #require(
            await firstValue(within: .seconds(15), every: .milliseconds(100)) { () -> HTTPEdge.Answer? in
                let answer = try? await edge.request(.GET, "/readyz")
                return answer?.status == 503 ? answer : nil
            }, "readyz says 503 once posts has no worker")
        #expect(unready.header("Retry-After") == "1" && unready.header("Content-Type")?.hasPrefix("application/problem+json") == true)
        #expect(try await edge.request(.GET, "/healthz").status == 200, "the edge itself is alive")
    }

    /// Issue #28's failover seen through HTTP: four clients `POST` with
    /// their keys while the gateway the edge uses is killed (-9); the edge
    /// moves to the other, sends what was in flight again, and no request
    /// fails or is applied twice.
    @Test func test_failover_aKill9OfTheGatewayInUseDuringPOSTs_failsNoneAndAppliesNoneTwice() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        let gateways = TwoGateways(harness: harness)
        try await gateways.start("a", context: context)
        try await gateways.start("b", context: context)
        try await gateways.startWorker(
            "posts-service", "posts-service", service: "posts", sessions: 2, ["--database", harness.databasePath], context: context)
        let edge = try await harness.startHTTPEdge(gateway: gateways.endpoints.joined(separator: ","), environment: gateways.environment)

        let (clients, each) = (4, 40)
        let statuses = try await withThrowingTaskGroup(of: [Int].self) { group in
            for client in 0..<clients {
                group.addTask {
                    var statuses: [Int] = []
                    for number in 0..<each {
                        let answer = try await edge.request(
                            .POST, "/posts", headers: [("Idempotency-Key", "client-\(client)-\(number)")],
                            json: Self.post("Client \(client), post \(number)"))
                        statuses.append(answer.status)
                    }
                    return statuses
                }
            }
            // Kill the gateway in use once the writes are under way.
            var count = 0
            _ = await eventually {
                count = (try? await edge.request(.GET, "/posts/count").json?["count"]?.intValue) ?? 0
                return count >= 20
            }
            await harness.kill("gateway-a")
            #expect(count < clients * each, "the kill came while the POSTs were under way (\(count) saved by then)")
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(statuses.count == clients * each && statuses.allSatisfy { $0 == 201 }, "every POST answered 201: \(statuses.filter { $0 != 201 })")
        #expect(try await edge.request(.GET, "/posts/count").json?["count"]?.intValue == clients * each, "each applied once")
    }

    @Test func test_changes_areServerSentEvents_andALastEventIDResumesWithNoneLostOrRepeated() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let edge = try await Self.started(harness)
        // Changes before anyone listens: three posts, an edit of the first, a delete of the second.
        var made: [String] = []
        for title in ["First", "Second", "Third"] {
            made.append(try #require(try await edge.request(.POST, "/posts", json: Self.post(title)).json?["uid"]?.stringValue))
        }
        #expect(
            try await edge.request(.PATCH, "/posts/\(made[0])", json: #"{"content":"edited"}"#, contentType: "application/merge-patch+json")
                .status == 200)
        #expect(try await edge.request(.DELETE, "/posts/\(made[1])").status == 204)

        // The feed keeps each post's latest change, in order: the third, the edited first, the second's delete.
        var everything = try await edge.events("/posts/changes?after=0")
        #expect(everything.status == 200 && everything.headers.first(name: "Content-Type")?.hasPrefix("text/event-stream") == true)
        var seen: [HTTPEdge.Event] = []
        for _ in 0..<3 { seen.append(try #require(try await everything.next())) }
        #expect(seen.map(\.name) == ["upsert", "upsert", "delete"])
        #expect(seen.map { $0.json?["uid"]?.stringValue } == [made[2], made[0], made[1]])
        #expect(seen[1].json?["content"] == "edited", "an upsert carries the post as it was saved")
        let ids = seen.compactMap { $0.id.flatMap { Int64($0) } }
        #expect(ids.count == 3 && ids == ids.sorted() && Set(ids).count == 3, "ids are the changes' sequences: \(ids)")

        // A client that saw one comes back with its id: the other two follow, then live ones.
        var resumed = try await edge.events("/posts/changes", headers: [("Last-Event-ID", try #require(seen[0].id))])
        #expect(try await resumed.next() == seen[1])
        #expect(try await resumed.next() == seen[2])
        let live = try #require(try await edge.request(.POST, "/posts", json: Self.post("Live")).json?["uid"]?.stringValue)
        let event = try #require(try await resumed.next())
        #expect(event.name == "upsert" && event.json?["uid"]?.stringValue == live)
        #expect(try await everything.next() == event, "every open stream gets the live change, once")

        // With neither, a stream starts from now.
        var fresh = try await edge.events("/posts/changes")
        let fourth = try #require(try await edge.request(.POST, "/posts", json: Self.post("After it opened")).json?["uid"]?.stringValue)
        #expect(try await fresh.next()?.json?["uid"]?.stringValue == fourth)
    }

    @Test func test_changes_aStreamOutlivesAPostsServiceRestart_andLosesNoChange() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        let edge = try await Self.started(harness)
        #expect(try await edge.request(.POST, "/posts", json: Self.post("Before")).status == 201)
        var start = try await edge.events("/posts/changes?after=0")
        let before = try #require(try await start.next()?.id)

        var open = try await edge.events("/posts/changes", headers: [("Last-Event-ID", before)])
        _ = await harness.terminate("posts-service")
        try await harness.startPostsService(context: context)
        var made: [String] = []
        for title in ["After one", "After two"] {
            made.append(try #require(try await edge.request(.POST, "/posts", json: Self.post(title)).json?["uid"]?.stringValue))
        }
        #expect(try await open.next()?.json?["uid"]?.stringValue == made[0], "the open stream went on after the restart")
        #expect(try await open.next()?.json?["uid"]?.stringValue == made[1])
        var again = try await edge.events("/posts/changes", headers: [("Last-Event-ID", before)])
        #expect(try await again.next()?.json?["uid"]?.stringValue == made[0], "a client coming back after the restart misses nothing")
        #expect(try await again.next()?.json?["uid"]?.stringValue == made[1])
    }

    /// With posts-service gone for longer than a heartbeat's interval, the
    /// stream still sends its heartbeat comments (so a proxy keeps it), and
    /// goes on with the changes once posts-service is back.
    @Test func test_changes_heartbeatsGoOnWhileTheFeedIsNotAnswering() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        let edge = try await Self.started(harness)
        #expect(try await edge.request(.POST, "/posts", json: Self.post("Before the outage")).status == 201)
        var open = try await edge.events("/posts/changes?after=0")
        #expect(try await open.next()?.id != nil)
        _ = await harness.terminate("posts-service")
        // Back after more than one heartbeat interval (15 s), then a change.
        let back = Task {
            try await Task.sleep(for: .seconds(20))
            try await harness.startPostsService(context: context)
            return try await edge.request(.POST, "/posts", json: Self.post("After the outage")).json?["uid"]?.stringValue
        }
        var heartbeats = 0
        let after = try await open.next(comments: &heartbeats)
        #expect(heartbeats >= 1, "no heartbeat while the feed was not answering")
        #expect(after?.json?["uid"]?.stringValue == (try await back.value))
    }

    /// posts-service started again on a new database: its sequences count
    /// from 1 again, so an open stream, and a client coming back with an id
    /// from the old one, are told (`reset`, id 0) and given the new
    /// database's changes from its first, none skipped.
    @Test func test_changes_aNewDatabase_isAResetEvent_thenEveryChangeOfTheNewOne() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        let edge = try await Self.started(harness)
        for title in ["Old one", "Old two", "Old three"] {
            #expect(try await edge.request(.POST, "/posts", json: Self.post(title)).status == 201)
        }
        var open = try await edge.events("/posts/changes?after=0")
        var last: String?
        for _ in 0..<3 { last = try await open.next()?.id }
        let old = try #require(last)

        _ = await harness.terminate("posts-service")
        try await harness.startPostsService(database: ["--database", harness.directory + "/new.sqlite"], context: context)
        let made = try #require(try await edge.request(.POST, "/posts", json: Self.post("New one")).json?["uid"]?.stringValue)
        var heartbeats = 0
        let reset = try await open.next(comments: &heartbeats)
        #expect(reset?.name == "reset" && reset?.id == "0", "\(String(describing: reset))")
        #expect(heartbeats == 0, "the watch's poll told of the new database's head: the reset came before an idle heartbeat")
        #expect(try await open.next()?.json?["uid"]?.stringValue == made, "the new database's first change follows the reset")

        var again = try await edge.events("/posts/changes", headers: [("Last-Event-ID", old)])
        #expect(try await again.next()?.name == "reset")
        #expect(try await again.next()?.json?["uid"]?.stringValue == made)
    }

    @Test func test_changes_refuseABadIDAndStreamsPastTheLimit() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startPostsSystem(context: context)
        let edge = try await harness.startHTTPEdge("posts-http", ["--max-streams", "1"])
        let bad = try await edge.request(.GET, "/posts/changes", headers: [("Last-Event-ID", "yesterday")])
        #expect(bad.status == 400 && bad.field == "Last-Event-ID", "\(bad.body)")
        #expect(try await edge.request(.GET, "/posts/changes?after=-1").field == "after")
        let open = try await edge.events("/posts/changes")
        #expect(open.status == 200)
        let refused = try await edge.request(.GET, "/posts/changes")
        #expect(refused.status == 503 && refused.header("Retry-After") == "1", "\(refused.body)")
        withExtendedLifetime(open) {}
    }

    @Test func test_theDocumentIsValidOpenAPI() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Services/PostsHTTP/openapi.json")
            .standardizedFileURL.path
        let check = """
            import sys
            from openapi_spec_validator import validate
            from openapi_spec_validator.readers import read_from_filename
            spec, _ = read_from_filename(sys.argv[1])
            validate(spec)
            print("valid", spec["openapi"])
            """
        let run = try await harness.run("/usr/bin/env", ["python3", "-c", check, document], limit: .seconds(60))
        #expect(run.status == 0 && run.stdout.contains("valid 3.1"), "openapi-spec-validator (deploy/setup --test): \(run.stdout)\(run.stderr)")
    }

    /// A property-based tester (schemathesis) makes requests from the
    /// document alone, well-formed and not, and checks every answer against
    /// it: no fault (500), every status and header and body as documented,
    /// what the document allows accepted and what it forbids refused. A
    /// fixed seed and a bounded number of examples per operation; the
    /// change stream, which never ends, has tests of its own above.
    @Test func test_aPropertyBasedTester_findsNoFailureInItsBoundedRun() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let edge = try await Self.started(harness, search: true)
        let config = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("HTTP/schemathesis.toml").path
        let run = try await harness.run(
            "/usr/bin/env",
            [
                "python3", "-m", "schemathesis.cli", "--config-file", config, "run", "\(edge.base)/openapi.json", "--checks", "all",
                "--max-examples", "25", "--seed", "1", "--exclude-operation-id", "streamChanges", "--request-timeout", "30", "--no-color",
            ], limit: .seconds(240))
        #expect(run.status == 0, "schemathesis (deploy/setup --test) found failures:\n\(run.stdout.suffix(6000))\(run.stderr.suffix(2000))")
        #expect(run.stdout.contains("passed"), "\(run.stdout.suffix(2000))")
    }

    @Test func test_offLoopback_refusesToStart_unlessInsecure() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let refused = try harness.start("refused", "posts-http", ["--listen", "0.0.0.0:0"])
        let status = try #require(await refused.exit(within: .seconds(20)))
        #expect(status != 0)
        #expect(harness.log("refused").contains("refusing to listen on 0.0.0.0:0"), "\(harness.log("refused"))")
    }
}
