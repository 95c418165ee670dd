import Foundation
import Testing
import Wire
import ZeroMQ

/// `posts top`: each method's figures, from each worker process's own
/// count (`rpc.stats`), through the gateway.
@Suite("posts top", .serialized, .timeLimit(.minutes(5)))
struct PostsTopTests {
    @Test func test_topShowsEachMethodsRequestsAndErrors_overEveryProcess() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startGateway(context: context)
        try await harness.startPostsService("posts-1", sessions: 1, context: context)
        try await harness.startPostsService("posts-2", sessions: 1, context: context)
        for n in 1...4 { #expect(try await harness.posts(["create", "--title", "Post \(n)"]).status == 0) }
        #expect(try await harness.posts(["show", UUID().uuidString]).status == 3)
        let top = try await harness.posts(["top", "--count", "1", "--json"])
        #expect(top.status == 0, "\(top)")
        let rows = try #require(top.json?.arrayValue, "\(top.stdout)")
        func row(_ method: String) -> JSONValue? { rows.first { $0["method"]?.stringValue == method } }
        #expect(row("posts.save")?["requests"]?.intValue == 4, "summed over both processes: \(rows)")
        #expect(row("posts.get")?["errors"]?.intValue == 1)
        let p50 = try #require(row("posts.save")?["p50Milliseconds"]?.doubleValue, "\(rows)")
        let p99 = try #require(row("posts.save")?["p99Milliseconds"]?.doubleValue, "\(rows)")
        #expect(p50 > 0 && p99 >= p50, "a save takes some time, and the 99th percentile is never below the median: \(rows)")
        let table = try await harness.posts(["top", "--count", "2", "--interval", "0.2"])
        #expect(table.status == 0 && table.stdout.contains("REQ/S") && table.stdout.contains("posts.save"), "\(table)")
        let bad = try await harness.posts(["top", "--interval", "0"])
        #expect(bad.status == 64 && bad.stderr.contains("--interval must be from 0.1 to 3600 seconds"), "\(bad)")
    }
}
