import Domain
import Foundation
import RPCServer
import Synchronization
import TestSupport
import TestTraits
import Testing
@testable import Wire

/// Methods declared once (`RPCMethod`): the client's request and the
/// router's registration meet on the same descriptor, `_meta` travels in
/// params, and a spent budget is never worked on.
@Suite("Method descriptors and the router", .ownThread, .timeLimit(.minutes(5)))
struct JSONRPCRouterTests {
    struct Echo: Codable, Sendable, Equatable { var text: String }
    static let echo = RPCMethod<Echo, Echo>("test.echo", service: "test")
    static let remove = RPCWrite<Echo, DeleteResult>("test.remove", service: "test")
    static let ping = RPCMethod<NoParams, HealthResult>("test.ping", service: "test")

    final class Ran: Sendable {
        let methods = Mutex<[String]>([])
        let keys = Mutex<[RequestKey?]>([])
    }

    private func router(ran: Ran = Ran()) -> JSONRPCRouter {
        var router = JSONRPCRouter(service: "test")
        router.on(Self.echo) { params, call in
            ran.methods.withLock { $0.append("echo") }
            let left = RPCDeadline.current.map { ContinuousClock.now.duration(to: $0) }
            return Echo(
                text: params.text + (left.map { $0 > .zero && $0 <= .seconds(5) ? " (budget)" : " (wrong budget)" } ?? "")
                    + (call.meta.traceparent.map { " " + $0 } ?? ""))
        }
        router.on(Self.remove) { params, key, _ in
            ran.keys.withLock { $0.append(key) }
            if params.text == "reused" { throw PostsError.invalid(RequestKey.field, .malformed("already used")) }
            return DeleteResult(deleted: params.text == "there")
        }
        router.on(Self.ping) { _, _ in HealthResult(status: "ok", service: "test", pid: 1) }
        return router
    }

    private func request<P: Encodable>(_ method: RPCMethod<P, some Codable & Sendable>, _ params: P, meta: RequestMeta? = nil) throws -> Data {
        try JSONRPC.encodeRequest(id: .number(1), method: method.name, params: params, meta: meta)
    }

    private func request<P: Encodable>(_ write: RPCWrite<P, some Codable & Sendable>, _ params: P, meta: RequestMeta? = nil) throws -> Data {
        try request(write.method, params, meta: meta)
    }

    @Test func test_aWriteHandler_isGivenTheRequestsKey_checked_andItsRefusalNamesWhereTheRequestCarriesIt() async throws {
        let ran = Ran()
        let router = router(ran: ran)
        _ = await router.handle(try request(Self.remove, Echo(text: "there"), meta: RequestMeta(requestKey: "k-1")))
        _ = await router.handle(try request(Self.remove, Echo(text: "there")))
        #expect(ran.keys.withLock { $0 } == [try RequestKey("k-1"), nil])

        let bad = await router.handle(try request(Self.remove, Echo(text: "there"), meta: RequestMeta(requestKey: "two words")))
        #expect(bad.outcome == RPCOutcome.error(.invalidParams))
        #expect(String(decoding: bad.reply, as: UTF8.self).contains(#""field":"params._meta.requestKey""#))
        #expect(ran.keys.withLock { $0.count } == 2, "a malformed key reached the handler")

        let reused = await router.handle(try request(Self.remove, Echo(text: "reused"), meta: RequestMeta(requestKey: "k-1")))
        #expect(reused.outcome == RPCOutcome.error(.invalidParams))
        #expect(String(decoding: reused.reply, as: UTF8.self).contains(#""field":"params._meta.requestKey""#))
    }

    @Test func test_metaIsWrittenAsTheLastMemberOfParams_evenOfEmptyParams() async throws {
        let meta = RequestMeta(traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", timeoutMs: 2500)
        let withParams = String(decoding: try request(Self.echo, Echo(text: "hi"), meta: meta), as: UTF8.self)
        #expect(
            withParams
                == #"{"jsonrpc":"2.0","id":1,"method":"test.echo","params":{"text":"hi","#
                + #""_meta":{"traceparent":"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01","timeoutMs":2500}}}"#
        )
        let empty = String(decoding: try request(Self.ping, NoParams(), meta: RequestMeta(timeoutMs: 7)), as: UTF8.self)
        #expect(empty == #"{"jsonrpc":"2.0","id":1,"method":"test.ping","params":{"_meta":{"timeoutMs":7}}}"#)
        let none = String(decoding: try request(Self.ping, NoParams()), as: UTF8.self)
        #expect(none == #"{"jsonrpc":"2.0","id":1,"method":"test.ping","params":{}}"#)
    }

    @Test func test_theHandlerGetsItsTypedParams_itsMeta_andTheDeadlineOfItsBudget() async throws {
        let meta = RequestMeta(traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", timeoutMs: 5000)
        let handled = await router().handle(try request(Self.echo, Echo(text: "hi"), meta: meta))
        #expect(handled.outcome == RPCOutcome.ok)
        #expect(try JSONRPC.decodeResponse(handled.reply, as: Echo.self).text == "hi (budget) \(meta.traceparent!)")
    }

    @Test func test_aRequestWhoseBudgetIsSpent_isAnsweredTimeout_andNeverWorkedOn() async throws {
        let ran = Ran()
        let handled = await router(ran: ran).handle(try request(Self.echo, Echo(text: "late"), meta: RequestMeta(timeoutMs: 0)))
        #expect(handled.outcome == RPCOutcome.error(.timeout))
        #expect(ran.methods.withLock { $0 }.isEmpty)
        #expect((try? JSONRPC.decodeResponse(handled.reply, as: Echo.self)) == nil)
    }

    @Test func test_aMetaOfTheWrongShape_isInvalidParams_namingTheMember() async throws {
        let body = Data(#"{"jsonrpc":"2.0","id":1,"method":"test.echo","params":{"text":"x","_meta":{"timeoutMs":"soon"}}}"#.utf8)
        let handled = await router().handle(body)
        #expect(handled.outcome == RPCOutcome.error(.invalidParams))
        #expect(String(decoding: handled.reply, as: UTF8.self).contains("params._meta.timeoutMs"))
    }

    @Test func test_aWriteThatChangedNothing_isNotReportedAsAWrite_andAReadNever() async throws {
        let router = router()
        #expect(await router.handle(try request(Self.remove, Echo(text: "there"))).wrote)
        #expect(await !router.handle(try request(Self.remove, Echo(text: "gone"))).wrote)
        #expect(await !router.handle(try request(Self.echo, Echo(text: "read"))).wrote)
    }

    @Test func test_anUnknownMethod_isMethodNotFound_andNoParamsMeansTheDefault() async throws {
        let router = router()
        let unknown = await router.handle(Data(#"{"jsonrpc":"2.0","id":1,"method":"test.nope"}"#.utf8))
        #expect(unknown.outcome == RPCOutcome.error(.methodNotFound))
        let bare = await router.handle(Data(#"{"jsonrpc":"2.0","id":1,"method":"test.ping"}"#.utf8))
        #expect(try JSONRPC.decodeResponse(bare.reply, as: HealthResult.self).status == "ok")
        #expect(router.methods == ["rpc.stats", "test.echo", "test.ping", "test.remove"])
    }

    @Test func test_rpcStatsCountsEachMethod_andMethodsNoServiceHasOnlyAsOther() async throws {
        let router = router()
        for name in ["test.nope", "test.\(UUID())"] {
            _ = await router.handle(Data(#"{"jsonrpc":"2.0","id":1,"method":"\#(name)"}"#.utf8))
        }
        _ = await router.handle(try request(Self.echo, Echo(text: "hi")))
        let stats = try JSONRPC.decodeResponse(
            await router.handle(try request(ServerStats.method(of: "test"), NoParams())).reply,
            as: ServerStats.self)
        #expect(
            stats.methods.map(\.method) == ["_OTHER", "rpc.stats", "test.echo", "test.ping", "test.remove"],
            "a peer's method names never become entries of their own")
        #expect(stats.methods.first { $0.method == "_OTHER" }?.requests == 2)
        #expect(stats.methods.first { $0.method == "_OTHER" }?.errors == 2)
        #expect(stats.methods.first { $0.method == "test.echo" }.map { $0.requests == 1 && $0.errors == 0 && $0.p50Ms != nil } == true)
    }

    @Test func test_aSearchHitCrossesTheWireAsItsDTO_andComesBackTheSame() async throws {
        let hit = SearchHit(uid: UUID(), title: "t", snippet: "…zebra…", highlights: [1..<6, 7..<7], score: 2.5)
        let results = SearchResults(hits: [hit], total: 1, totalIsExact: false, sequence: 9)
        let data = try JSONRPC.encodeResult(id: .number(1), SearchResultDTO(domain: results, pid: 3))
        #expect(String(decoding: data, as: UTF8.self).contains(#""highlights":[[1,6],[7,7]],"score":2.5"#))
        #expect(try JSONRPC.decodeResponse(data, as: SearchResultDTO.self).toDomain() == results)
        let backwards = Data(
            (#"{"jsonrpc":"2.0","id":1,"result":{"hits":[{"uid":"\#(hit.uid)","title":"t","snippet":"s","highlights":[[5,1]],"score":1}],"total":1,"#
                + #""totalIsExact":true,"sequence":1,"pid":1}}"#).utf8)
        #expect((try? JSONRPC.decodeResponse(backwards, as: SearchResultDTO.self)) == nil, "a highlight whose end is before its start")
    }
}

/// What a call made on behalf of a request may spend (`GatewayConnection.call` sends it as its budget).
@Suite("Deadlines passed on", .ownThread, .timeLimit(.minutes(5)))
struct RPCDeadlineTests {
    @Test func test_aCallForARequestSendsNoMoreThanTheRequestHasLeft_andNoneOnceItIsSpent() async {
        #expect(RPCDeadline.remaining(within: .seconds(10)) == .seconds(10), "outside a request: the caller's own timeout")
        let left = RPCDeadline.$current.withValue(ContinuousClock.now + .milliseconds(300)) { RPCDeadline.remaining(within: .seconds(10)) }
        #expect(left > .zero && left <= .milliseconds(300))
        let more = RPCDeadline.$current.withValue(ContinuousClock.now + .seconds(60)) { RPCDeadline.remaining(within: .seconds(10)) }
        #expect(more == .seconds(10), "never more than the caller's own timeout")
        let spent = RPCDeadline.$current.withValue(ContinuousClock.now - .seconds(1)) { RPCDeadline.remaining(within: .seconds(10)) }
        #expect(spent == .zero)
    }
}
