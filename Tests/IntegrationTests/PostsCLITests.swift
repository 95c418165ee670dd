import Foundation
import Testing
import Wire
import ZeroMQ

/// The real `posts` CLI against a real gateway and posts-service.
@Suite("posts CLI end to end", .serialized, .timeLimit(.minutes(5)))
struct PostsCLITests {
    @Test func test_everyCommandWorksThroughTheGateway() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        try await harness.startPostsSystem(context: try Context())

        let first = try await harness.posts(["create", "--title", "First post", "--content", "Hello world"])
        #expect(first.status == 0)
        let uid = try #require(UUID(uuidString: first.trimmed), "create prints the uid: \(first.stdout) \(first.stderr)")
        try "From a file".write(toFile: "\(harness.directory)/body.txt", atomically: true, encoding: .utf8)
        #expect(try await harness.posts(["create", "--title", "Second", "--content-file", "\(harness.directory)/body.txt"]).status == 0)
        #expect(try await harness.posts(["create", "--title", "Third"], input: "From standard input").status == 0)

        let list = try await harness.posts(["list"])
        #expect(list.status == 0)
        #expect(list.stdout.contains("First post") && list.stdout.contains("Second") && list.stdout.contains("Third"))
        let json = try #require(try await harness.posts(["list", "--json"]).json)
        guard case .array(let posts)? = json["posts"] else { throw HarnessError("list --json has no posts array: \(json)") }
        #expect(posts.compactMap { $0["content"]?.stringValue }.sorted() == ["From a file", "From standard input", "Hello world"])

        let paged = try await harness.posts(["list", "--limit", "2"])
        let cursor = try #require(paged.stdout.components(separatedBy: "--cursor ").last?.trimmingCharacters(in: .whitespacesAndNewlines))
        let rest = try #require(try await harness.posts(["list", "--cursor", cursor, "--json"]).json)
        #expect(rest["posts"].map { if case .array(let items) = $0 { items.count } else { -1 } } == 1)

        let shown = try await harness.posts(["show", uid.uuidString])
        #expect(shown.stdout.contains("First post") && shown.stdout.contains("Hello world"))
        #expect(try await harness.posts(["edit", uid.uuidString, "--title", "First, edited"]).status == 0)
        #expect(try await harness.posts(["show", uid.uuidString, "--json"]).json?["title"] == "First, edited")

        #expect(try await harness.posts(["delete", uid.uuidString]).stdout.contains("Deleted"))
        #expect(try await harness.posts(["count"]).trimmed == "2", "three made, one deleted")
        #expect(try await harness.posts(["count", "--json"]).json?["count"]?.intValue == 2)
        let gone = try await harness.posts(["show", uid.uuidString])
        #expect(gone.status == 3)
        #expect(gone.stderr.contains("no post with uid \(uid.uuidString)"))

        let status = try await harness.posts(["status"])
        #expect(status.status == 0)
        #expect(status.stdout.contains("posts") && status.stdout.contains("PROCESS") && status.stdout.contains("REFUSED"))
        let processes = try await harness.posts(["status", "--json"]).json?["processes"]
        #expect(
            processes.map { if case .array(let all) = $0 { all.compactMap { $0["sessions"]?.intValue } } else { [] } } == [2],
            "one posts-service process with its two sessions")
    }

    @Test func test_aWriteSentAgainWithItsRequestKey_isAppliedOnce_andAnsweredAsTheFirstTime() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        try await harness.startPostsSystem(context: try Context())
        let create = ["create", "--title", "Once", "--content", "only once", "--request-key", "script-run-7"]
        let first = try await harness.posts(create)
        let again = try await harness.posts(create)
        #expect(first.status == 0 && again.status == 0, "\(first.stderr) \(again.stderr)")
        #expect(again.trimmed == first.trimmed, "the same post's uid both times")
        #expect(try await harness.posts(["count"]).trimmed == "1")
        let other = try await harness.posts(["create", "--title", "Once", "--content", "changed", "--request-key", "script-run-7"])
        #expect(other.status == 65 && other.stderr.contains("already used for another write"), "\(other.stderr)")

        let edit = ["edit", first.trimmed, "--title", "Twice?", "--request-key", "script-edit-1"]
        #expect(try await harness.posts(edit).status == 0)
        let editedAgain = try await harness.posts(edit)
        #expect(editedAgain.status == 0, "an edit sent again is answered, not a conflict: \(editedAgain.stderr)")
        let delete = ["delete", first.trimmed, "--request-key", "script-delete-1"]
        #expect(try await harness.posts(delete).status == 0)
        #expect(try await harness.posts(delete).status == 0, "a delete sent again says deleted, as the first time")
        let bad = try await harness.posts(["delete", first.trimmed, "--request-key", "two words"])
        #expect(bad.status == 64 && bad.stderr.contains("--request-key"), "\(bad.stderr)")
    }

    @Test func test_importReadsArraysJSONLinesAndSampleData_andReimportingWithUIDsDuplicatesNothing() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        try await harness.startPostsSystem(context: try Context())
        let sample = (1...10).map { #"{"userId":1,"id":\#($0),"title":"sample \#($0)","body":"body \#($0)"}"# }
        try ("[" + sample.joined(separator: ",") + "]").write(toFile: "\(harness.directory)/sample.json", atomically: true, encoding: .utf8)
        let lines = (1...5).map { #"{"uid":"\#(UUID().uuidString)","title":"line \#($0)","content":"c"}"# }.joined(separator: "\n")
        try lines.write(toFile: "\(harness.directory)/posts.jsonl", atomically: true, encoding: .utf8)

        let imported = try await harness.posts(["import", "\(harness.directory)/sample.json"])
        #expect(imported.status == 0)
        #expect(imported.stdout.contains("Imported 10 posts"))
        #expect(imported.stderr.contains("imported 10/10"), "plain progress lines when not on a terminal")
        #expect(try await harness.posts(["import", "\(harness.directory)/posts.jsonl"]).status == 0)
        #expect(try await harness.posts(["import", "-"], input: lines).status == 0)

        #expect(try await harness.posts(["import", "\(harness.directory)/sample.json"]).status == 0, "sample data imported twice")
        let all = try #require(try await harness.posts(["list", "--limit", "500", "--json"]).json)
        guard case .array(let posts)? = all["posts"] else { throw HarnessError("no posts array") }
        #expect(posts.count == 15)
        #expect(posts.contains { $0["title"] == "sample 3" && $0["content"] == "body 3" })
    }

    @Test func test_badInputGivesAClearMessageAndTheDocumentedExitCode() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        try await harness.startPostsSystem(context: try Context())
        try String(repeating: "x", count: 100_001).write(toFile: "\(harness.directory)/big.txt", atomically: true, encoding: .utf8)

        let empty = try await harness.posts(["create", "--title", "   "])
        #expect(empty.status == 65 && empty.stderr.contains("title must not be empty"))
        let big = try await harness.posts(["create", "--title", "t", "--content-file", "\(harness.directory)/big.txt"])
        #expect(big.status == 65 && big.stderr.contains("content must be at most 100000 bytes"))
        let badUID = try await harness.posts(["show", "42"])
        #expect(badUID.status == 65 && badUID.stderr.contains("'42'"))
        let unknown = try await harness.posts(["delete", UUID().uuidString])
        #expect(unknown.status == 3)
        #expect(try await harness.posts(["list", "--limit", "many"]).status == 64)
        #expect(try await harness.posts(["list", "--limit", "0"]).status == 64)
        #expect(try await harness.posts(["edit", UUID().uuidString]).status == 64, "an edit that changes nothing is a usage mistake")
        let badGateway = try await harness.run("posts", ["list"], environment: ["POSTS_GATEWAY": "htp://x"])
        #expect(badGateway.status == 64 && badGateway.stderr.contains("POSTS_GATEWAY"))
        let badImport = try await harness.posts(["import", "-"], input: "{\"title\":\"ok\"}\n{\"content\":\"no title\"}\n")
        #expect(badImport.status == 65 && badImport.stderr.contains("line 2.title is required"))
        let wrongKind = try await harness.posts(["import", "-"], input: "{\"title\":\"ok\"}\n{\"title\":5}\n")
        #expect(wrongKind.status == 65 && wrongKind.stderr.contains("line 2.title must be a string (got 5)"), "\(wrongKind.stderr)")
        let notAnObject = try await harness.posts(["import", "-"], input: "[{\"title\":\"ok\"}, 7]")
        #expect(notAnObject.status == 65 && notAnObject.stderr.contains("entry 2 is not a post object"), "\(notAnObject.stderr)")
        #expect(try await harness.posts(["list", "--json"]).json?["posts"] == .array([]), "a bad import writes nothing")
    }

    @Test func test_requestsSentStraightToTheGatewayGetTheRightJSONRPCErrors() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startPostsSystem(context: context)
        let peer = try RawPeer(context, endpoint: harness.gatewayEndpoint)

        func send(_ body: String) async throws -> JSONRPCError? {
            try peer.send(["", "MDPC01", "posts", Frame(body)])
            guard case .failure(let error) = try await peer.response().outcome else { return nil }
            return error
        }
        let unknown = UUID().uuidString
        let tooMany = (0...1000).map { _ in #"{"uid":"\#(UUID().uuidString)","title":"t","content":""}"# }.joined(separator: ",")
        #expect(try await send("{not json")?.code == .parseError)
        #expect(try await send(#"{"jsonrpc":"2.0","id":1,"method":"posts.nope"}"#)?.code == .methodNotFound)
        let missing = try await send(#"{"jsonrpc":"2.0","id":2,"method":"posts.save","params":{"post":{"uid":"\#(unknown)","content":"x"}}}"#)
        #expect(missing?.code == .invalidParams && missing?.data?["field"] == "params.post.title")
        let emptyTitle = try await send(
            #"{"jsonrpc":"2.0","id":3,"method":"posts.save","params":{"post":{"uid":"\#(unknown)","title":" ","content":""}}}"#)
        #expect(emptyTitle?.code == .invalidParams && emptyTitle?.data?["field"] == "params.post.title", "named where it is in the request")
        #expect(try await send(#"{"jsonrpc":"2.0","id":4,"method":"posts.get","params":{"uid":"nope"}}"#)?.data?["field"] == "params.uid")
        #expect(try await send(#"{"jsonrpc":"2.0","id":5,"method":"posts.get","params":{"uid":"\#(unknown)"}}"#)?.code == .notFound)
        let overBatch = try await send(#"{"jsonrpc":"2.0","id":6,"method":"posts.saveMany","params":{"posts":[\#(tooMany)]}}"#)
        #expect(overBatch?.code == .invalidParams && overBatch?.data?["field"] == "params.posts" && overBatch?.data?["max"] == 1000)
        #expect(try await send(#"{"jsonrpc":"2.0","id":7,"method":"posts.health"}"#) == nil)
        let secondBad = try await send(
            #"{"jsonrpc":"2.0","id":8,"method":"posts.saveMany","params":{"posts":[{"uid":"\#(UUID().uuidString)","title":"ok","content":""},"#
                + #"{"uid":"\#(unknown)","title":"","content":""}]}}"#
        )
        #expect(secondBad?.code == .invalidParams && secondBad?.data?["field"] == "params.posts[1].title")
    }

    @Test func test_withNoGatewayOrNoWorker_theCLISaysWhatToStart_insteadOfHanging() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let noGateway = try await harness.posts(["list", "--timeout", "0.3"])
        #expect(noGateway.status == 4)
        #expect(noGateway.stderr.contains("is it running?") && noGateway.stderr.contains("make run"))
        #expect(noGateway.stderr.split(separator: "\n").count == 1, "one line: \(noGateway.stderr)")

        try await harness.startGateway(context: try Context())
        let noWorker = try await harness.posts(["list", "--timeout", "1"])  // it waits its timeout for a worker to register
        #expect(noWorker.status == 4)
        #expect(noWorker.stderr.contains("no process serves 'posts'") && noWorker.stderr.contains("start posts-service"))
    }

    @Test func test_largePostsAreImportedInBatchesThatFitTheGatewaysFrameLimit() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        try await harness.startPostsSystem(context: try Context())
        let big = String(repeating: "x", count: 100_000)
        let lines = (0..<40).map { #"{"title":"big \#($0)","content":"\#(big)"}"# }.joined(separator: "\n")
        let imported = try await harness.posts(["import", "-"], input: lines)
        #expect(imported.status == 0, "\(imported.stderr)")
        let first = try #require(try await harness.posts(["list", "--limit", "500", "--json"]).json)
        guard case .array(let page)? = first["posts"] else { throw HarnessError("no posts array") }
        #expect(page.count < 40, "a 4 MB page is split")
        #expect(first["nextCursor"]?.stringValue != nil)
    }

    @Test func test_theSameCommandsWorkOnALocalFileWithNoServices() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let file = "\(harness.directory)/local.sqlite"
        let created = try await harness.posts(["create", "--local", file, "--title", "Offline"])
        #expect(created.status == 0)
        #expect(try await harness.posts(["list", "--local", file]).stdout.contains("Offline"))
        #expect(try await harness.posts(["show", "--local", file, created.trimmed]).stdout.contains("Offline"))
        #expect(try await harness.posts(["status", "--local", file]).stdout.contains("Posts: 1"))
        #expect(try await harness.posts(["count", "--local", file]).trimmed == "1")
        #expect(try await harness.posts(["delete", "--local", file, created.trimmed]).status == 0)
        #expect(try await harness.posts(["create", "--local", "bare.sqlite", "--title", "Here"]).status == 0, "a bare file name")
        #expect(FileManager.default.fileExists(atPath: "\(harness.directory)/bare.sqlite"))
    }
}
