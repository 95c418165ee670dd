import Domain
import Foundation
import RPCServer
import TestSupport
import TestTraits
import Testing
import Wire

@Suite("JSON-RPC envelope", .ownThread, .timeLimit(.minutes(5)))
struct JSONRPCTests {
    struct Params: Codable, Equatable { var title: String; var count: Int }

    @Test func test_aRequestRoundTrips_withItsIdMethodAndParams() async throws {
        let data = try JSONRPC.encodeRequest(id: .string("7f3c"), method: "posts.save", params: Params(title: "t", count: 2))
        let request = try JSONRPC.decodeRequest(data).get()
        #expect(request.id == .string("7f3c"))
        #expect(request.method == "posts.save")
        #expect(try request.params(Params.self) == Params(title: "t", count: 2))
    }

    @Test func test_aReplyReadWhereItsBytesAre_readsAsTheSameReplyCopied() async throws {
        let reply = try JSONRPC.encodeResult(id: .string("r-1"), HealthResult(status: "ok", service: "posts", pid: 7))
        let refusal = JSONRPC.encodeError(id: .number(2), JSONRPCError(PostsError.unavailable(.shuttingDown)))
        reply.withUnsafeBytes { bytes in
            #expect(JSONRPC.id(in: bytes) == .string("r-1"))
            #expect(JSONRPC.id(in: bytes) == JSONRPC.id(in: reply))
            #expect((try? JSONRPC.decodeResponse(bytes: bytes, as: HealthResult.self)) == (try? JSONRPC.decodeResponse(reply, as: HealthResult.self)))
            #expect(JSONRPC.outage(in: bytes) == nil)
        }
        refusal.withUnsafeBytes { bytes in
            #expect(JSONRPC.outage(in: bytes) == .shuttingDown)
            #expect(throws: JSONRPCError.self) { try JSONRPC.decodeResponse(bytes: bytes, as: HealthResult.self) }
        }
    }

    @Test func test_paramsOrAFallback_whenThereAreNone() async throws {
        let none = try JSONRPC.decodeRequest(Data(#"{"jsonrpc":"2.0","id":1,"method":"m","params":null}"#.utf8)).get()
        #expect(try none.params(ListParams.self, or: ListParams(limit: 3)).limit == 3)
        let some = try JSONRPC.decodeRequest(Data(#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"limit":5}}"#.utf8)).get()
        #expect(try some.params(ListParams.self, or: ListParams(limit: 3)).limit == 5)
    }

    @Test func test_anyParamsCanBeTakenAsTheyAre() async throws {
        let request = try JSONRPC.decodeRequest(Data(#"{"jsonrpc":"2.0","id":1,"method":"m","params":[1,{"a":2.5}]}"#.utf8)).get()
        #expect(try request.params(JSONValue?.self) == [1, ["a": 2.5]])
    }

    @Test func test_theLastPageSaysNextCursorNull_ratherThanLeavingItOut() async throws {
        let text = String(decoding: try JSONRPC.encodeResult(id: .number(1), PageResult(posts: [], nextCursor: nil)), as: UTF8.self)
        #expect(text.contains(#""nextCursor":null"#))
    }

    @Test func test_anErrorReplyDecodesAsTheErrorItCarries() async throws {
        let sent = JSONRPCError(.notFound, "no post with uid X", data: ["uid": "X"])
        let data = JSONRPC.encodeError(id: .number(3), sent)
        let received = try #require(throws: JSONRPCError.self) { try JSONRPC.decodeResponse(data, as: Params.self) }
        #expect(received == sent)
        #expect(JSONRPC.id(in: data) == .number(3))
    }

    @Test func test_aResultReplyDecodesAsTheResult() async throws {
        let data = try JSONRPC.encodeResult(id: .string("a"), Params(title: "x", count: 1))
        #expect(try JSONRPC.decodeResponse(data, as: Params.self) == Params(title: "x", count: 1))
        #expect(JSONRPC.id(in: data)?.correlationKey == "\"a\"")
    }

    @Test func test_aNullResultIsAResult() async throws {
        let data = Data(#"{"jsonrpc":"2.0","id":1,"result":null}"#.utf8)
        #expect(try JSONRPC.decodeResponse(data, as: JSONValue.self) == .null)
    }

    @Test func test_aReplyOfTheWrongShape_isAnInternalErrorNamingWhereItDiffers() async throws {
        let data = Data(#"{"jsonrpc":"2.0","id":1,"result":{"title":"x","count":"one"}}"#.utf8)
        let error = try #require(throws: JSONRPCError.self) { try JSONRPC.decodeResponse(data, as: Params.self) }
        #expect(error.code == .internalError && error.message.contains("result.count must be an integer (got a string)"))
        let garbage = try #require(throws: JSONRPCError.self) { try JSONRPC.decodeResponse(Data("nope".utf8), as: Params.self) }
        #expect(garbage.code == .internalError)
    }

    /// A page of changes, large enough that its reply is read with its
    /// structure noted (`JSONStructure.worthNoting`).
    static func page(_ count: Int) -> ChangesResult {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let changes = (0..<count).map { index in
            let digits = String(index)
            let uid = UUID(text: "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - digits.count) + digits)!
            let post = Post(uid: uid, title: "Post \(index) \"quoted\" é", content: "line\nnext \(index)", createDate: date, updateDate: date)
            return PostChange(sequence: Int64(index + 1), uid: uid, kind: index % 7 == 0 ? .delete : .upsert(post))
        }
        return ChangesResult(domain: PostChanges(changes: changes, head: Int64(count), database: "db"))
    }

    @Test func test_aLargeReply_readsAsTheSameResult_asASmallOneDoes() async throws {
        let large = try JSONRPC.encodeResult(id: .number(1), Self.page(200))
        let small = try JSONRPC.encodeResult(id: .number(1), Self.page(3))
        #expect(large.count >= 4096 && small.count < 4096, "one reply read with its structure noted, one without")
        #expect(try JSONRPC.decodeResponse(large, as: ChangesResult.self) == Self.page(200))
        #expect(try JSONRPC.decodeResponse(small, as: ChangesResult.self).changes.count == 3)
    }

    @Test func test_aLargeReplyWithABrokenEscapeOrCutShort_isAnInternalError() async throws {
        let text = String(decoding: try JSONRPC.encodeResult(id: .number(1), Self.page(200)), as: UTF8.self)
        let broken = Data(text.replacingOccurrences(of: "line\\nnext 150", with: "line\\qnext 150").utf8)
        let error = try #require(throws: JSONRPCError.self) { try JSONRPC.decodeResponse(broken, as: ChangesResult.self) }
        #expect(error.code == .internalError)
        let cut = Data(text.utf8.prefix(text.utf8.count - 40))
        #expect(throws: JSONRPCError.self) { try JSONRPC.decodeResponse(cut, as: ChangesResult.self) }
    }

    @Test func test_theIdIsFoundWithoutReadingTheRestAsValues() async {
        let big = String(repeating: #"{"t":"\u00e9 x","n":[1,2.5,true,null]},"#, count: 1000)
        #expect(JSONRPC.id(in: Data(#"{"result":[\#(big){}],"id":"late"}"#.utf8)) == .string("late"))
        #expect(JSONRPC.id(in: Data(#"{"params":{"id":5},"id":6}"#.utf8)) == .number(6), "only the top level's id")
        #expect(JSONRPC.id(in: Data(#"{"jsonrpc":"2.0","id":7,"result":[1,2"#.utf8)) == .number(7), "cut short after its id")
        #expect(JSONRPC.id(in: Data(#"{"result":[1,2,"id":7}"#.utf8)) == nil, "not JSON before the id")
        #expect(JSONRPC.id(in: Data(#"{"id":null}"#.utf8)) == .null)
        #expect(JSONRPC.id(in: Data(#"{"method":"m"}"#.utf8)) == nil)
        #expect(JSONRPC.id(in: Data(#"{"id":1.5}"#.utf8)) == nil)
        #expect(JSONRPC.id(in: Data("MDPC01".utf8)) == nil)
        #expect(JSONRPC.id(in: Data()) == nil)
    }

    @Test func test_correlationKeysOfStringAndNumberIdsNeverCollide() async {
        #expect(JSONRPCID.string("7").correlationKey != JSONRPCID.number(7).correlationKey)
        #expect(JSONRPCID.null.correlationKey == nil)
    }

    @Test func test_errorCodesHaveTheirSpecifiedValues() async {
        #expect(
            [JSONRPCErrorCode.parseError, .invalidRequest, .methodNotFound, .invalidParams, .internalError].map(\.rawValue)
                == [-32700, -32600, -32601, -32602, -32603])
        let application: [JSONRPCErrorCode] = [.notFound, .conflict, .serviceUnavailable, .timeout, .tooLarge, .busy]
        #expect(application.map(\.rawValue) == [-32001, -32002, -32003, -32004, -32005, -32006])
    }

    @Test func test_invalidParamsInWords_roundTripsAsAMalformedField() async {
        let error = JSONRPCError.invalidParams(field: "params.q", "must not be blank")
        #expect(error.message == "params.q must not be blank")
        #expect(PostsError(error) == .invalid("q", .malformed("must not be blank")))
    }
}

@Suite("Serving one request", .ownThread, .timeLimit(.minutes(5)))
struct RespondTests {
    struct Boom: Error {}

    /// The error answered, and the methods reported as faults.
    private func respond(maxReplyBytes: Int = .max, _ answer: (JSONRPC.IncomingRequest) async throws -> Data) async -> (JSONRPCError?, [String]) {
        let body = Data(#"{"jsonrpc":"2.0","id":9,"method":"posts.get","params":{"uid":"x"}}"#.utf8)
        var faults: [String] = []
        let reply = await JSONRPC.respond(to: body, maxReplyBytes: maxReplyBytes, onFault: { method, _ in faults.append(method) }, answer: answer)
        #expect(JSONRPC.id(in: reply) == .number(9))
        do { _ = try JSONRPC.decodeResponse(reply, as: JSONValue.self); return (nil, faults) } catch { return (error, faults) }
    }

    @Test func test_aReplyOverTheFrameLimit_isTooLarge_withItsBytesAndLimit() async {
        let (error, _) = await respond(maxReplyBytes: 10) { request in try JSONRPC.encodeResult(id: request.id, "a long enough reply") }
        let bytes = (try? JSONRPC.encodeResult(id: .number(9), "a long enough reply").count) ?? 0
        #expect(error.map(PostsError.init) == .tooLarge(bytes: bytes, limit: 10))
    }

    @Test func test_aUseCaseErrorIsAnsweredAsItsDocumentedCode() async {
        let uid = UUID()
        let (error, faults) = await respond { _ in throw PostsError.notFound(uid: uid) }
        #expect(faults.isEmpty, "a use case's answer is not a fault")
        #expect(error?.code == .notFound && error.map(PostsError.init) == .notFound(uid: uid))
    }

    @Test func test_anyOtherFault_isAnInternalErrorInWords_andIsReported() async {
        let (error, faults) = await respond { _ in throw Boom() }
        #expect(error?.code == .internalError && faults == ["posts.get"])
        #expect(error?.message.contains("Boom") == false && error?.message.contains("posts.get") == true)
    }

    @Test func test_badParamsAreAnsweredAsInvalidParams() async {
        let (error, _) = await respond { request in
            _ = try request.params(ChangesParams.self); return Data()
        }
        #expect(error?.message == "params.after is required")
    }

    @Test func test_theOutageAReplyReports_isReadFromItsErrorAlone() async {
        let interrupted = JSONRPC.encodeError(id: .number(1), JSONRPCError(PostsError.unavailable(.interrupted(service: "posts"))))
        #expect(JSONRPC.outage(in: interrupted) == .interrupted(service: "posts"))
        let timeout = JSONRPC.encodeError(id: .number(2), JSONRPCError(PostsError.timeout(seconds: 1)))
        #expect(JSONRPC.outage(in: timeout) == nil)
        // A result that merely holds the words is no outage.
        let result = Data(#"{"jsonrpc":"2.0","id":3,"result":{"code":-32003,"data":{"reason":"shuttingDown"}}}"#.utf8)
        #expect(JSONRPC.outage(in: result) == nil)
    }
}
