import Domain
import Foundation
import LocalPlatform
import Logging
@testable import SearchService
import TestSupport
import TestTraits
import Testing
import Wire

/// search-service's router over a real FTS5 index kept in sync from a SQLite file's change feed.
@Suite("search-service router", .ownThread, .timeLimit(.minutes(5)))
struct SearchRouterTests {
    private func call(_ router: SearchRouter, _ json: String) async throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: await router.handle(Data(json.utf8)))
    }

    @Test func test_aQueryFindsWhatTheSyncApplied_andStatsReportTheLag() async throws {
        let directory = try makeTemporaryDirectory("search")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let posts = try LocalPlatform.open(path: directory + "/posts.sqlite", searchIndex: .memory)
        _ = try await UseCaseProvider(posts).makePostsUseCase().save(Post(title: "Zebra crossing", content: "stripes"), key: nil)
        let index = try SQLiteSearchIndex()
        let sync = IndexSync(index: index, feed: posts.feed)
        let router = SearchRouter(
            search: SearchInteractor(engine: index), index: index, sync: sync, maxReplyBytes: 1 << 20,
            logger: Logger(label: "test"))
        #expect(router.router.methods == (SearchMethod.names + ["rpc.stats"]).sorted(), "what --help lists is what is served")
        sync.heard(head: 1)
        let before = try await call(router, #"{"jsonrpc":"2.0","id":1,"method":"search.stats"}"#)
        #expect(before["result"]?["index"]?["lag"]?.intValue == 1, "a notice of head 1 before anything was applied")
        try await sync.catchUp()
        let found = try await call(router, #"{"jsonrpc":"2.0","id":2,"method":"search.query","params":{"q":"zeb"}}"#)
        #expect(found["result"]?["total"]?.intValue == 1)
        #expect(found["result"]?["pid"]?.intValue == Int(getpid()))
        let after = try await call(router, #"{"jsonrpc":"2.0","id":3,"method":"search.stats"}"#)
        #expect(after["result"]?["index"]?["lag"]?.intValue == 0)
        #expect(after["result"]?["index"]?["documents"]?.intValue == 1)
    }

    @Test func test_anOverlongQueryIsRefusedNamingQ() async throws {
        let index = try SQLiteSearchIndex()
        let router = SearchRouter(
            search: SearchInteractor(engine: index), index: index,
            sync: IndexSync(index: index, feed: EmptyFeed()), maxReplyBytes: 1 << 20, logger: Logger(label: "test"))
        let q = String(repeating: "a", count: SearchRules.maxQueryLength + 1)
        let reply = try await call(router, #"{"jsonrpc":"2.0","id":1,"method":"search.query","params":{"q":"\#(q)"}}"#)
        #expect(reply["error"]?["code"]?.intValue == -32602)
        #expect(reply["error"]?["data"]?["field"] == "params.q")
    }
}

private struct EmptyFeed: ChangeFeed {
    func changes(after sequence: Int64, limit: Int) async throws(PostsError) -> PostChanges { PostChanges(changes: [], head: 0) }
    func head() async throws(PostsError) -> Int64 { 0 }
}
