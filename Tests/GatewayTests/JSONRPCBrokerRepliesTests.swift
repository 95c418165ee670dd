import Domain
import Foundation
@testable import Gateway
@testable import Majordomo
import TestTraits
import Testing
import Wire
import ZeroMQ

/// What a client reads when the gateway answers for a worker: each refusal
/// as the Domain error it stands for, under the request's own id, and the
/// `mmi.*` documents `posts status` prints.
@Suite("Gateway's JSON-RPC replies", .ownThread, .timeLimit(.minutes(1)))
struct JSONRPCBrokerRepliesTests {
    let replies = JSONRPCBrokerReplies()

    func request(id: Int = 7, meta: String = "") -> [Frame] {
        [Frame(#"{"jsonrpc":"2.0","id":\#(id),"method":"posts.get","params":{"uid":"x"\#(meta)}}"#)]
    }

    /// The refusal's JSON-RPC error, the id it was sent under, and the Domain error a client makes of it.
    func answer(_ refusal: BrokerRefusal, to body: [Frame]) throws -> (error: JSONRPCError, id: JSONRPCID?, domain: PostsError) {
        let frames = replies.refusal(refusal, request: body)
        #expect(frames.count == 1, "one JSON-RPC body")
        let data = Data(try #require(frames.first).bytes)
        let error = try #require(throws: JSONRPCError.self) { _ = try JSONRPC.decodeResponse(data, as: JSONValue.self) }
        return (error, JSONRPC.id(in: data), PostsError(error))
    }

    /// A request that gives its id twice is refused under the id the
    /// service would have answered it under: the last.
    @Test func test_aRequestWithTwoIDs_isRefusedUnderTheLast_asTheServiceReadsIt() async throws {
        let body = [Frame(#"{"jsonrpc":"2.0","id":1,"method":"posts.get","id":"second","params":{"uid":"x"}}"#)]
        let (_, id, _) = try answer(.queueFull(service: "posts", limit: 10), to: body)
        #expect(id == .string("second"))
        let service = JSONRPC.decodeRequest(Data(body[0].bytes))
        #expect((try? service.get())?.id == .string("second"), "the service reads the last id too")
    }

    @Test func test_eachRefusal_isTheDomainErrorItStandsFor_underTheRequestsID() async throws {
        let cases: [(BrokerRefusal, PostsError)] = [
            (.serviceUnavailable(service: "posts", waited: .seconds(2)), .unavailable(.noWorker(service: "posts"))),
            (.clientLimit(service: "posts", limit: 100), .busy(.clientLimit(100))),
            (.queueFull(service: "posts", limit: 1000), .busy(.queueFull(service: "posts", limit: 1000))),
            (.interrupted(service: "posts"), .unavailable(.interrupted(service: "posts"))),
            (.shuttingDown(service: "posts"), .unavailable(.shuttingDown)),
            (.serviceLimit(service: "posts", limit: 64), .unavailable(.noWorker(service: "posts"))),
            (.timeout(service: "posts", budget: .milliseconds(1500), withWorker: true), .timeout(seconds: 1.5)),
        ]
        for (refusal, expected) in cases {
            let (_, id, domain) = try answer(refusal, to: request(id: 41))
            #expect(id == .number(41), "\(refusal)")
            #expect(domain == expected, "\(refusal)")
        }
    }

    @Test func test_aRefusalSaysWhatTheGatewaySaw_inWordsAPersonCanActOn() async throws {
        let unavailable = try answer(.serviceUnavailable(service: "search", waited: .milliseconds(2500)), to: request()).error
        #expect(unavailable.code == .serviceUnavailable)
        #expect(unavailable.message == "service 'search' is unavailable: no worker took the request within 2500 ms")
        let queueTimeout = try answer(.timeout(service: "posts", budget: .milliseconds(300), withWorker: false), to: request()).error
        #expect(queueTimeout.code == .timeout)
        #expect(queueTimeout.message.contains("300 ms") && queueTimeout.message.contains("no worker was given it"))
        let failed = try answer(.workersFailed(service: "posts", attempts: 2), to: request()).error
        #expect(failed.code == .internalError && failed.message.contains("2 'posts' worker processes stopped responding"))
        #expect(failed.message.contains("request key"), "says a retry with its key is safe")
    }

    @Test func test_aClientOfAnotherMDPVersion_isToldWhichOneThisIs() async throws {
        let (error, _, _) = try answer(.unsupportedProtocol(header: "MDPC02", service: "posts"), to: request())
        #expect(error.code == .invalidRequest)
        #expect(error.data?["expected"] == "MDPC01" && error.data?["actual"] == "MDPC02")
    }

    @Test func test_aServiceNameAPeerMadeUp_isShownEscaped_neverAsRawControlCharacters() async throws {
        let (error, _, _) = try answer(.invalidServiceName(service: "bad\u{1B}[2Jname"), to: request())
        #expect(error.code == .invalidRequest && error.data?["reason"] == "serviceName")
        #expect(!error.message.contains("\u{1B}"), "\(error.message)")
    }

    @Test func test_aRequestThatIsNotJSON_isAnsweredWithANullID() async throws {
        let (_, id, domain) = try answer(.shuttingDown(service: "posts"), to: [Frame("not json at all")])
        #expect(id == .null)
        #expect(domain == .unavailable(.shuttingDown))
    }

    @Test func test_theBudgetIsReadFromMeta_andASpentOneCountsAsZero() async throws {
        #expect(replies.budget(of: request(meta: #","_meta":{"timeoutMs":1500}"#)) == .milliseconds(1500))
        #expect(replies.budget(of: request(meta: #","_meta":{"timeoutMs":-20}"#)) == .zero)
        #expect(replies.budget(of: request()) == nil, "no budget given")
        #expect(replies.budget(of: request(meta: #","_meta":{"timeoutMs":50}"#) + ["second frame"]) == nil, "only a one-frame body is read")
    }

    @Test func test_aRequestThatWaitedIsHandedOnWithWhatIsLeft_oneHandedOnAtOnceIsNotCopied() async throws {
        let body = request(meta: #","_meta":{"timeoutMs":1500}"#)
        let atOnce = replies.body(body, waited: .milliseconds(1), remaining: .milliseconds(1499))
        #expect(atOnce == body)
        let later = replies.body(body, waited: .milliseconds(400), remaining: .milliseconds(1100))
        #expect(replies.budget(of: later) == .milliseconds(1100))
        let rest = try JSONDecoder().decode(JSONValue.self, from: Data(try #require(later.first).bytes))
        #expect(rest["params"]?["uid"] == "x" && rest["id"] == 7, "the rest of the request is as it was")
        let almostSpent = replies.body(body, waited: .milliseconds(1499), remaining: .microseconds(300))
        #expect(replies.budget(of: almostSpent) == .milliseconds(1), "at least 1 ms: the broker hands on only what has time left")
    }

    @Test func test_statusGroupsSessionsIntoTheirProcesses_andNamesEveryService() async throws {
        var configuration = BrokerConfiguration()
        configuration.heartbeatInterval = .seconds(1)
        let start = ContinuousClock.now
        var core = BrokerCore(configuration: configuration, replies: replies, now: start)
        // Sessions name themselves <pid>.<process>.<connection>: two of process 101, one of 202.
        for peer in ["101.a1.1", "101.a1.2", "202.b2.1"] {
            core.handle([Frame(peer)] + MDP.ready(service: "posts"), now: start)
        }
        _ = core.takeOutbox()
        let snapshot = core.snapshot(now: start + .seconds(1))
        let frames = try #require(replies.introspection(service: "mmi.status", request: request(id: 3), snapshot: snapshot))
        let data = Data(try #require(frames.first).bytes)
        #expect(JSONRPC.id(in: data) == .number(3))
        let status = try JSONRPC.decodeResponse(data, as: GatewayStatus.self)
        #expect(status.services.map(\.name) == ["posts"])
        #expect(status.services.first?.sessions == 3)
        #expect(status.sessions(of: "posts") == 3)
        #expect(status.services.first?.processes == 2, "two sessions of one process are one process")
        #expect(status.processes.map(\.pid) == [101, 202] && status.processes.map(\.sessions) == [2, 1])
        #expect(replies.introspection(service: "mmi.unknown", request: request(), snapshot: snapshot) == nil, "left to the broker")
    }
}
