import Foundation
import Testing
import Wire

@Suite("JSON-RPC envelope")
struct JSONRPCTests {
    struct Params: Codable, Equatable { var title: String; var count: Int }

    @Test func test_aRequestRoundTrips_withItsIdMethodAndParams() throws {
        let data = try JSONRPC.encodeRequest(id: .string("7f3c"), method: "posts.save", params: Params(title: "t", count: 2))
        let request = try JSONRPC.decodeRequest(data).get()
        #expect(request.id == .string("7f3c"))
        #expect(request.method == "posts.save")
        #expect(try request.params(Params.self) == Params(title: "t", count: 2))
    }

    @Test func test_whenTheBodyIsNotJSON_thenParseErrorWithNullId() {
        guard case .failure(let failure) = JSONRPC.decodeRequest(Data("{not json".utf8)) else {
            Issue.record("garbage was accepted")
            return
        }
        #expect(failure.id == .null)
        #expect(failure.error.code == .parseError)
    }

    @Test(arguments: [
        #"[1,2]"#,
        #"{"id":1,"method":"m"}"#,
        #"{"jsonrpc":"1.0","id":1,"method":"m"}"#,
        #"{"jsonrpc":"2.0","id":1}"#,
        #"{"jsonrpc":"2.0","id":1,"method":""}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"m","params":"x"}"#,
    ])
    func test_whenTheBodyIsNotARequest_thenInvalidRequest(_ text: String) {
        guard case .failure(let failure) = JSONRPC.decodeRequest(Data(text.utf8)) else {
            Issue.record("\(text) was accepted")
            return
        }
        #expect(failure.error.code == .invalidRequest)
    }

    @Test func test_whenInvalidRequestHasAnId_thenTheErrorKeepsTheId() {
        guard case .failure(let failure) = JSONRPC.decodeRequest(Data(#"{"jsonrpc":"1.0","id":"abc","method":"m"}"#.utf8)) else {
            Issue.record("accepted")
            return
        }
        #expect(failure.id == .string("abc"))
    }

    @Test func test_whenParamsHaveTheWrongShape_thenInvalidParamsNamesTheField() throws {
        let data = Data(#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"title":"t","count":"two"}}"#.utf8)
        let request = try JSONRPC.decodeRequest(data).get()
        let error = try #require(throws: JSONRPCError.self) { try request.params(Params.self) }
        #expect(error.code == .invalidParams)
        #expect(error.data?["field"] == "params.count" && error.data?["reason"] == "wrongType" && error.data?["expected"] == "integer")
        #expect(error.message == "params.count must be an integer (got a string)")
    }

    @Test func test_whenAParamIsMissing_thenInvalidParamsSaysItIsRequired() throws {
        let data = Data(#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"count":1}}"#.utf8)
        let error = try #require(throws: JSONRPCError.self) { try JSONRPC.decodeRequest(data).get().params(Params.self) }
        #expect(error.message == "params.title is required")
    }

    @Test func test_aFieldInsideAnArrayIsNamedWithItsIndex() throws {
        struct Batch: Codable { var posts: [Params] }
        let data = Data(#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"posts":[{"title":"a","count":1},{"count":2}]}}"#.utf8)
        let error = try #require(throws: JSONRPCError.self) { try JSONRPC.decodeRequest(data).get().params(Batch.self) }
        #expect(error.data?["field"] == "params.posts[1].title" && error.data?["reason"] == "missing")
    }

    @Test func test_theLastPageSaysNextCursorNull_ratherThanLeavingItOut() throws {
        let text = String(decoding: try JSONRPC.encodeResult(id: .number(1), PageResult(posts: [], nextCursor: nil)), as: UTF8.self)
        #expect(text.contains(#""nextCursor":null"#))
    }

    @Test func test_anErrorReplyDecodesAsTheErrorItCarries() throws {
        let sent = JSONRPCError(.notFound, "no post with uid X", data: ["uid": "X"])
        let data = JSONRPC.encodeError(id: .number(3), sent)
        let received = try #require(throws: JSONRPCError.self) { try JSONRPC.decodeResponse(data, as: Params.self) }
        #expect(received == sent)
        #expect(JSONRPC.id(in: data) == .number(3))
    }

    @Test func test_aResultReplyDecodesAsTheResult() throws {
        let data = try JSONRPC.encodeResult(id: .string("a"), Params(title: "x", count: 1))
        #expect(try JSONRPC.decodeResponse(data, as: Params.self) == Params(title: "x", count: 1))
        #expect(JSONRPC.id(in: data)?.correlationKey == "\"a\"")
    }

    @Test func test_correlationKeysOfStringAndNumberIdsNeverCollide() {
        #expect(JSONRPCID.string("7").correlationKey != JSONRPCID.number(7).correlationKey)
        #expect(JSONRPCID.null.correlationKey == nil)
    }

    @Test func test_errorCodesHaveTheirSpecifiedValues() {
        #expect([JSONRPCErrorCode.parseError, .invalidRequest, .methodNotFound, .invalidParams, .internalError].map(\.rawValue)
                == [-32700, -32600, -32601, -32602, -32603])
        let application: [JSONRPCErrorCode] = [.notFound, .conflict, .serviceUnavailable, .timeout, .tooLarge, .busy]
        #expect(application.allSatisfy { (-32099 ... -32000).contains($0.rawValue) })
        #expect(Set(application).count == application.count)
    }

    @Test func test_anyJSONValueRoundTrips() throws {
        let value: JSONValue = ["a": [1, "two", true, nil], "b": ["c": .number(2.5)]]
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value)
    }
}
