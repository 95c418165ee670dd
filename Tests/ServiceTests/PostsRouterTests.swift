import Domain
import Foundation
import LocalPlatform
import Logging
@testable import PostsService
import TestSupport
import TestTraits
import Testing
import Wire
import ZeroMQ

/// posts-service's router on a real SQLite file: raw JSON-RPC in, raw JSON out.
@Suite("posts-service router", .ownThread, .timeLimit(.minutes(5)))
struct PostsRouterTests {
    private final class Fixture: Sendable {
        let directory: String
        let router: PostsRouter

        init(maxReplyBytes: Int = 16 << 20) throws {
            directory = try makeTemporaryDirectory("router")
            let provider = UseCaseProvider(try LocalPlatform.open(path: directory + "/posts.sqlite", searchIndex: .memory))
            router = PostsRouter(
                posts: provider.makePostsUseCase(), changes: provider.makePostChangesUseCase(), events: nil,
                maxReplyBytes: maxReplyBytes, logger: Logger(label: "test"))
        }

        deinit { try? FileManager.default.removeItem(atPath: directory) }

        /// Sends `json` as a request body; returns the reply's `result` or `error` object.
        func call(_ json: String) async throws -> JSONValue {
            try JSONDecoder().decode(JSONValue.self, from: await router.handle(Data(json.utf8)))
        }
    }

    private func request(_ method: String, _ params: String) -> String {
        #"{"jsonrpc":"2.0","id":1,"method":"\#(method)","params":\#(params)}"#
    }

    @Test func test_aRequestReadWhereItsFrameIs_isAnsweredAsTheSameRequestCopied() async throws {
        let fixture = try Fixture()
        _ = try await fixture.call(request("posts.save", #"{"post":{"uid":"\#(UUID().uuidString)","title":"t","content":"c"}}"#))
        let body = request("posts.count", "{}")
        let copied = await fixture.router.handle(Data(body.utf8))
        let inPlace = await fixture.router.handle(frame: Frame(body))
        #expect(inPlace == copied)
        #expect(try JSONDecoder().decode(JSONValue.self, from: inPlace)["result"]?["count"]?.intValue == 1)
        let broken = await fixture.router.handle(frame: Frame(#"{"jsonrpc":"2.0","id":3,"method":"#))
        #expect(try JSONDecoder().decode(JSONValue.self, from: broken)["error"]?["code"]?.intValue == -32700)
    }

    @Test func test_everyMethodServed_isListedInHelp_andEveryOneListedIsServed() async throws {
        let fixture = try Fixture()
        #expect(fixture.router.router.methods == (PostsMethod.names + ["rpc.stats"]).sorted())
    }

    @Test func test_aSavedPostIsReadBack_withItsDatesInMilliseconds() async throws {
        let fixture = try Fixture()
        let uid = UUID().uuidString
        let saved = try await fixture.call(
            request("posts.save", #"{"post":{"uid":"\#(uid)","title":" Hi ","content":"c","createDate":"9999-12-31T23:59:59.999Z"}}"#))
        #expect(saved["result"]?["title"] == "Hi")
        let read = try await fixture.call(request("posts.get", #"{"uid":"\#(uid)"}"#))
        #expect(read["result"]?["createDate"] == "9999-12-31T23:59:59.999Z")
    }

    @Test func test_countAnswersHowManyPostsThereAre_withNoParamsOrAnObject_andAListIsInvalidParams() async throws {
        let fixture = try Fixture()
        let (one, two) = (UUID().uuidString, UUID().uuidString)
        _ = try await fixture.call(
            request("posts.saveMany", #"{"posts":[{"uid":"\#(one)","title":"a","content":""},{"uid":"\#(two)","title":"b","content":""}]}"#))
        #expect(try await fixture.call(#"{"jsonrpc":"2.0","id":1,"method":"posts.count"}"#)["result"]?["count"]?.intValue == 2)
        #expect(try await fixture.call(request("posts.count", "{}"))["result"]?["count"]?.intValue == 2)
        let wrong = try await fixture.call(request("posts.count", "[1]"))
        #expect(wrong["error"]?["code"]?.intValue == -32602, "\(wrong)")
        #expect(wrong["error"]?["data"]?["field"] == "params", "\(wrong)")
    }

    @Test func test_aNULInATitleIsRefusedNamingTheField_andNothingIsStored() async throws {
        let fixture = try Fixture()
        let reply = try await fixture.call(
            request("posts.save", #"{"post":{"uid":"\#(UUID().uuidString)","title":"before\u0000after","content":""}}"#))
        #expect(reply["error"]?["code"]?.intValue == -32602)
        #expect(reply["error"]?["data"]?["field"] == "params.post.title")
        let list = try await fixture.call(request("posts.list", "{}"))
        #expect(list["result"]?["posts"] == .array([]))
    }

    @Test func test_saveManyCountsDistinctPosts_theLaterEntryWinning() async throws {
        let fixture = try Fixture()
        let uid = UUID().uuidString
        let reply = try await fixture.call(
            request("posts.saveMany", #"{"posts":[{"uid":"\#(uid)","title":"one","content":""},{"uid":"\#(uid)","title":"two","content":""}]}"#))
        #expect(reply["result"]?["saved"]?.intValue == 1)
        #expect(try await fixture.call(request("posts.get", #"{"uid":"\#(uid)"}"#))["result"]?["title"] == "two")
    }

    @Test func test_saveManyOfMoreThanABatch_isRefusedNamingPosts() async throws {
        let fixture = try Fixture()
        let posts = (0...PostRules.maxBatch).map { _ in #"{"uid":"\#(UUID().uuidString)","title":"t","content":""}"# }.joined(separator: ",")
        let reply = try await fixture.call(request("posts.saveMany", "{\"posts\":[\(posts)]}"))
        #expect(reply["error"]?["code"]?.intValue == -32602)
        #expect(reply["error"]?["data"]?["field"] == "params.posts")
    }

    @Test func test_aBadPostInABatchIsNamedByItsPlace() async throws {
        let fixture = try Fixture()
        let reply = try await fixture.call(
            request(
                "posts.saveMany",
                #"{"posts":[{"uid":"\#(UUID().uuidString)","title":"ok","content":""},{"uid":"\#(UUID().uuidString)","title":"","content":""}]}"#))
        #expect(reply["error"]?["data"]?["field"] == "params.posts[1].title")
    }

    @Test func test_anEditOverAPostChangedSince_isAConflictWithItsUID() async throws {
        let fixture = try Fixture()
        let uid = UUID().uuidString
        _ = try await fixture.call(request("posts.save", #"{"post":{"uid":"\#(uid)","title":"a","content":""}}"#))
        let reply = try await fixture.call(
            request("posts.save", #"{"post":{"uid":"\#(uid)","title":"b","content":""},"ifUnchangedSince":"2000-01-01T00:00:00.000Z"}"#))
        #expect(reply["error"]?["code"]?.intValue == -32002)
        #expect(reply["error"]?["data"]?["uid"] == .string(uid))
    }

    @Test func test_aDeleteSentAgainWithItsRequestKey_isAnsweredAsTheFirstTime_andABadKeyIsRefusedNamingIt() async throws {
        let fixture = try Fixture()
        let uid = UUID().uuidString
        _ = try await fixture.call(request("posts.save", #"{"post":{"uid":"\#(uid)","title":"a","content":""}}"#))
        let delete = request("posts.delete", #"{"uid":"\#(uid)","_meta":{"requestKey":"3c1f-attempt"}}"#)
        #expect(try await fixture.call(delete)["result"]?["deleted"] == .bool(true))
        #expect(try await fixture.call(delete)["result"]?["deleted"] == .bool(true))
        let unkeyed = try await fixture.call(request("posts.delete", #"{"uid":"\#(uid)"}"#))
        #expect(unkeyed["result"]?["deleted"] == .bool(false))

        let bad = try await fixture.call(request("posts.delete", #"{"uid":"\#(uid)","_meta":{"requestKey":"two words"}}"#))
        #expect(bad["error"]?["code"]?.intValue == -32602)
        #expect(bad["error"]?["data"]?["field"] == "params._meta.requestKey")
    }

    @Test func test_changePagesAreCutToFitTheFrameLimit_andNothingIsSkipped() async throws {
        let fixture = try Fixture(maxReplyBytes: 4_000)
        let text = String(repeating: "x", count: 900)
        for _ in 0..<10 {
            _ = try await fixture.call(request("posts.save", #"{"post":{"uid":"\#(UUID().uuidString)","title":"t","content":"\#(text)"}}"#))
        }
        var after = 0
        var seen = 0
        while true {
            let page = try await fixture.call(request("posts.changes", #"{"after":\#(after),"limit":500}"#))
            guard case .array(let changes)? = page["result"]?["changes"], !changes.isEmpty else { break }
            #expect(changes.count < 10, "a page was cut")
            seen += changes.count
            after = changes.last?["sequence"]?.intValue ?? after
        }
        #expect(seen == 10)
    }

    @Test func test_anUnknownMethodIsMethodNotFound() async throws {
        let reply = try await Fixture().call(request("posts.nope", "{}"))
        #expect(reply["error"]?["code"]?.intValue == -32601)
    }
}
