import Domain
import Foundation
@testable import NetworkPlatform
import Synchronization
import TestSupport
import TestTraits
import Testing
import Wire
import ZeroMQ

/// GatewayConnection against gateways played by hand in the test process:
/// ROUTER sockets that answer 7/MDP client frames themselves. Replies reach
/// the call they answer by JSON-RPC id, whatever their order; a gateway that
/// is not there, goes away, or says it is shutting down hands its calls to
/// the next one; and when none can serve, the error says who was asked.
@Suite("GatewayConnection: reply correlation and failover", .serialized, .ownThread, .timeLimit(.minutes(1)))
struct GatewayConnectionTests {
    private static let echo = RPCMethod<Echo, Echo>("test.echo", service: "echo")
    private static let save = RPCWrite<Echo, Echo>("test.save", service: "echo")

    // MARK: - Reply correlation

    @Test func test_whenTwoCallsInFlightAreAnsweredInReverseOrder_thenEachGetsTheReplyToItsOwnRequest() async throws {
        try await withTemporaryDirectory("nc") { directory in
            let context = try Context()
            let gateway = try FakeGateway(context, at: "ipc://\(directory)/g.ipc")
            let connection = try GatewayConnection(endpoints: [gateway.endpoint], timeout: .seconds(30), retries: 0, context: context)
            let first = BackgroundCall(connection, Self.echo, "first")
            let second = BackgroundCall(connection, Self.echo, "second")
            // Both requests are with the gateway before either is answered.
            let one = try #require(try await gateway.nextRequest())
            let two = try #require(try await gateway.nextRequest())
            #expect([one.text, two.text].compactMap { $0 }.sorted() == ["first", "second"])
            #expect(one.call.id != two.call.id)
            for request in [two, one] { try gateway.answer(request, with: Echo(text: "answer to \(request.text ?? "?")")) }
            let firstOutcome = try #require(await first.result())
            let secondOutcome = try #require(await second.result())
            #expect(firstOutcome == .success(Echo(text: "answer to first")))
            #expect(secondOutcome == .success(Echo(text: "answer to second")))
        }
    }

    @Test func test_whenAReplyCarriesAnIdNoCallWasSentWith_thenItIsIgnoredAndTheCallGetsItsOwnReply() async throws {
        try await withTemporaryDirectory("nc") { directory in
            let context = try Context()
            let gateway = try FakeGateway(context, at: "ipc://\(directory)/g.ipc")
            let connection = try GatewayConnection(endpoints: [gateway.endpoint], timeout: .seconds(30), retries: 0, context: context)
            let call = BackgroundCall(connection, Self.echo, "hello")
            let request = try #require(try await gateway.nextRequest())
            // Strays first, under ids no call was sent with (a string and a number).
            try gateway.send(JSONRPC.encodeResult(id: .string("no-such-request"), Echo(text: "stray")), answering: request)
            try gateway.send(JSONRPC.encodeResult(id: .number(42), Echo(text: "stray")), answering: request)
            try gateway.answer(request, with: Echo(text: "answer to hello"))
            let outcome = try #require(await call.result())
            #expect(outcome == .success(Echo(text: "answer to hello")))
        }
    }

    @Test func test_whenTheGatewayAnswersWithAnError_thenTheCallFailsWithTheSamePostsError() async throws {
        try await withTemporaryDirectory("nc") { directory in
            let context = try Context()
            let gateway = try FakeGateway(context, at: "ipc://\(directory)/g.ipc")
            let connection = try GatewayConnection(endpoints: [gateway.endpoint], timeout: .seconds(30), retries: 0, context: context)
            let call = BackgroundCall(connection, Self.echo, "hello")
            let request = try #require(try await gateway.nextRequest())
            let uid = UUID()
            try gateway.refuse(request, with: .notFound(uid: uid))
            let outcome = try #require(await call.result())
            #expect(outcome == .failure(.notFound(uid: uid)))
        }
    }

    @Test func test_aWriteCarriesItsCallersKey_asGiven_andAReadCarriesNone() async throws {
        try await withTemporaryDirectory("nc") { directory in
            let context = try Context()
            let gateway = try FakeGateway(context, at: "ipc://\(directory)/g.ipc")
            let connection = try GatewayConnection(endpoints: [gateway.endpoint], timeout: .seconds(30), retries: 0, context: context)
            let write = BackgroundCall(connection, Self.save, "v1", key: try RequestKey("callers-key-1"))
            let written = try #require(try await gateway.nextRequest())
            #expect(try written.call.meta().requestKey == "callers-key-1")
            try gateway.answer(written, with: Echo(text: "saved"))
            #expect(try #require(await write.result()) == .success(Echo(text: "saved")))

            let read = BackgroundCall(connection, Self.echo, "hello")
            let asked = try #require(try await gateway.nextRequest())
            #expect(try asked.call.meta().requestKey == nil, "a read needs no key")
            try gateway.answer(asked, with: Echo(text: "hi"))
            #expect(try #require(await read.result()) == .success(Echo(text: "hi")))
        }
    }

    // MARK: - Failover

    @Test func test_whenTheFirstGatewayHasNothingListening_thenTheSecondServesTheCalls() async throws {
        try await withTemporaryDirectory("nc") { directory in
            let context = try Context()
            let nobody = "ipc://\(directory)/nobody.ipc"
            let gateway = try FakeGateway(context, at: "ipc://\(directory)/b.ipc")
            let connection = try GatewayConnection(endpoints: [nobody, gateway.endpoint], timeout: .seconds(30), retries: 0, context: context)
            let call = BackgroundCall(connection, Self.echo, "hello")
            try await gateway.answerNext(as: "b")
            let outcome = try #require(await call.result())
            #expect(outcome == .success(Echo(text: "b: hello")))
            #expect(connection.endpoint == gateway.endpoint)
            // The next call goes straight to the gateway that answered.
            let again = BackgroundCall(connection, Self.echo, "again")
            try await gateway.answerNext(as: "b")
            let againOutcome = try #require(await again.result())
            #expect(againOutcome == .success(Echo(text: "b: again")))
            #expect(connection.endpoint == gateway.endpoint)
        }
    }

    @Test func test_whenTheGatewayInUseClosesWithoutAnswering_thenThePendingCallIsServedByTheNext() async throws {
        try await withTemporaryDirectory("nc") { directory in
            let context = try Context()
            let silent = try FakeGateway(context, at: "ipc://\(directory)/a.ipc")
            let standby = try FakeGateway(context, at: "ipc://\(directory)/b.ipc")
            let connection = try GatewayConnection(
                endpoints: [silent.endpoint, standby.endpoint], timeout: .seconds(30), retries: 0, context: context)
            let call = BackgroundCall(connection, Self.echo, "hello")
            // a takes the call's first message (the request itself: no probe goes first) and goes away without a word.
            let first = try #require(try await silent.nextMessage())
            #expect(first.dropFirst(3).first?.string == "echo")
            silent.close()
            try await standby.answerNext(as: "b")
            let outcome = try #require(await call.result())
            #expect(outcome == .success(Echo(text: "b: hello")))
            #expect(connection.endpoint == standby.endpoint)
        }
    }

    @Test func test_whenTheGatewayInUseSaysItIsShuttingDown_thenTheWriteGoesToTheNextWithItsKeyAndWhatIsLeftOfItsBudget() async throws {
        try await withTemporaryDirectory("nc") { directory in
            let context = try Context()
            let leaving = try FakeGateway(context, at: "ipc://\(directory)/a.ipc")
            let standby = try FakeGateway(context, at: "ipc://\(directory)/b.ipc")
            let connection = try GatewayConnection(
                endpoints: [leaving.endpoint, standby.endpoint], timeout: .seconds(30), retries: 0, context: context)
            let call = BackgroundCall(connection, Self.save, "v2", key: nil)
            let taken = try #require(try await leaving.nextRequest())
            // Some of the budget is spent before a says no.
            try await Task.sleep(for: .milliseconds(50))
            try leaving.refuse(taken, with: .unavailable(.shuttingDown))
            let moved = try #require(try await standby.nextRequest())
            try standby.answer(moved, with: Echo(text: "saved by b"))
            let outcome = try #require(await call.result())
            #expect(outcome == .success(Echo(text: "saved by b")), "a's refusal is not the caller's answer")
            #expect(connection.endpoint == standby.endpoint)
            #expect(moved.call.id == taken.call.id)
            #expect(moved.text == "v2")
            let key = try #require(try taken.call.meta().requestKey, "a write given no key carries one of its own")
            #expect(try moved.call.meta().requestKey == key, "the same key on b: the write is applied once")
            let budget = try #require(try taken.call.meta().timeoutMs)
            let rest = try #require(try moved.call.meta().timeoutMs)
            #expect(budget == 30_000 - 100, "the call's budget is the connection's timeout, less the margin for the gateway's own answer")
            #expect(rest < budget, "b is given what is left of the budget, not all of it again")
        }
    }

    @Test func test_whenEveryGatewaySaysItIsShuttingDown_thenTheCallFailsAsShuttingDown() async throws {
        try await withTemporaryDirectory("nc") { directory in
            let context = try Context()
            let first = try FakeGateway(context, at: "ipc://\(directory)/a.ipc")
            let second = try FakeGateway(context, at: "ipc://\(directory)/b.ipc")
            let connection = try GatewayConnection(
                endpoints: [first.endpoint, second.endpoint], timeout: .seconds(30), retries: 0, context: context)
            let call = BackgroundCall(connection, Self.echo, "hello")
            let taken = try #require(try await first.nextRequest())
            try first.refuse(taken, with: .unavailable(.shuttingDown))
            let moved = try #require(try await second.nextRequest())
            try second.refuse(moved, with: .unavailable(.shuttingDown))
            let outcome = try #require(await call.result())
            #expect(outcome == .failure(.unavailable(.shuttingDown)))
        }
    }

    @Test func test_whenNoGatewayAnswers_thenTheCallFailsAsNoAnswerNamingEveryEndpoint() async throws {
        try await withTemporaryDirectory("nc") { directory in
            let context = try Context()
            let endpoints = ["ipc://\(directory)/a.ipc", "ipc://\(directory)/b.ipc"]
            let connection = try GatewayConnection(endpoints: endpoints, timeout: .milliseconds(300), retries: 0, context: context)
            // The call waits its timeout (under the first connection's wait); nobody was there: no answer.
            await #expect(throws: PostsError.unavailable(.noAnswer(endpoint: "\(endpoints[0]),\(endpoints[1])", seconds: 0.3))) {
                try await connection.call(Self.echo, Echo(text: "hello"))
            }
        }
    }

    @Test func test_theRequestGoesFirst_withNoQuestionBeforeIt_andAGatewaysNoWorkerIsTheCallsError() async throws {
        try await withTemporaryDirectory("nc") { directory in
            let context = try Context()
            let gateway = try FakeGateway(context, at: "ipc://\(directory)/g.ipc")
            let connection = try GatewayConnection(endpoints: [gateway.endpoint], timeout: .seconds(30), retries: 0, context: context)
            let call = BackgroundCall(connection, Self.echo, "hello")
            let first = try #require(try await gateway.nextMessage())
            #expect(first.dropFirst(3).first?.string == "echo", "the call's first message is its request")
            let request = try #require(try FakeGateway.request(in: first))
            try gateway.refuse(request, with: .unavailable(.noWorker(service: "echo")))
            let outcome = try #require(await call.result())
            #expect(outcome == .failure(.unavailable(.noWorker(service: "echo"))))
        }
    }

    @Test func test_whenNobodyListens_theCallFailsAsNoAnswer_withinTheFirstConnectionsWait_notItsWholeTimeout() async throws {
        try await withTemporaryDirectory("nc") { directory in
            let context = try Context()
            let endpoint = "ipc://\(directory)/nobody.ipc"
            let connection = try GatewayConnection(endpoints: [endpoint], timeout: .seconds(60), retries: 0, context: context)
            let call = BackgroundCall(connection, Self.echo, "hello")
            // Within the suite's limit, not the call's minute: it gives up after the first connection's wait.
            let outcome = try #require(await call.result(within: .seconds(30)))
            #expect(outcome == .failure(.unavailable(.noAnswer(endpoint: endpoint, seconds: GatewayConnection.probeTimeout.seconds))))
        }
    }
}

/// The params and the result of the test methods.
private struct Echo: Codable, Sendable, Equatable {
    var text: String
}

/// 7/MDP's client header (MDPC01).
private let clientHeader: Frame = "MDPC01"

/// A request as the fake gateway received it.
private struct ClientRequest {
    /// The client connection's routing id on the gateway's ROUTER.
    let peer: Frame
    let service: Frame
    let call: JSONRPC.IncomingRequest

    /// `params.text`.
    var text: String? { call.params?.value["text"]?.stringValue }
}

/// A gateway played by hand on the test's thread: a ROUTER that reads
/// 7/MDP client requests without blocking (a look, then a 2 ms sleep) and
/// hands them to the test.
private final class FakeGateway {
    let endpoint: String
    private let socket: Socket

    init(_ context: Context, at endpoint: String) throws {
        socket = try Socket(context, .router)
        try socket.set(.linger, 100)
        try socket.bind(endpoint)
        self.endpoint = endpoint
    }

    func close() { socket.close() }

    /// The next message as it came, answering nothing; nil if none within `limit`.
    func nextMessage(within limit: Duration = .seconds(30)) async throws -> [Frame]? {
        try await firstValue(within: limit) { try socket.receive(wait: false) }
    }

    /// The next request; nil if none came within `limit`, or before `stop` held.
    func nextRequest(within limit: Duration = .seconds(30), until stop: () -> Bool = { false }) async throws -> ClientRequest? {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline, !stop() {
            guard let frames = try socket.receive(wait: false) else {
                try await Task.sleep(for: .milliseconds(2))
                continue
            }
            if let request = try Self.request(in: frames) { return request }
        }
        return nil
    }

    /// Answers the next request with "`label`: its text", as gateway `label`
    /// would; a test whose call never reaches this gateway fails here.
    func answerNext(as label: String) async throws {
        let request = try #require(try await nextRequest(), "no request reached gateway \(label)")
        try answer(request, with: Echo(text: "\(label): \(request.text ?? "?")"))
    }

    /// Answers `request` with `result`, under its id.
    func answer(_ request: ClientRequest, with result: Echo) throws {
        try send(JSONRPC.encodeResult(id: request.call.id, result), answering: request)
    }

    /// Answers `request` with `error`, as a gateway or a worker would.
    func refuse(_ request: ClientRequest, with error: PostsError) throws {
        try send(JSONRPC.encodeError(id: request.call.id, JSONRPCError(error)), answering: request)
    }

    /// Sends `body` as a reply to the client that sent `request`, on its service.
    func send(_ body: Data, answering request: ClientRequest) throws {
        try socket.send([request.peer, Frame(), clientHeader, request.service, Frame(body)])
    }

    /// The client request `frames` hold; nil (an issue recorded) for anything else.
    static func request(in frames: [Frame]) throws -> ClientRequest? {
        // [peer, "", MDPC01, service, body]
        guard frames.count == 5, frames[1].isEmpty, frames[2] == clientHeader else {
            Issue.record("not a 7/MDP client request of one body frame: \(frames)")
            return nil
        }
        let call = try JSONRPC.decodeRequest(Data(frames[4].bytes)).get()
        return ClientRequest(peer: frames[0], service: frames[3], call: call)
    }
}

/// A call made in the background, whose outcome can be looked at without
/// waiting for it: the test's thread plays the gateway meanwhile.
private final class BackgroundCall: Sendable {
    private let outcome = Mutex<Result<Echo, PostsError>?>(nil)

    convenience init(_ connection: GatewayConnection, _ method: RPCMethod<Echo, Echo>, _ text: String) {
        self.init { () async throws(PostsError) -> Echo in try await connection.call(method, Echo(text: text)) }
    }

    convenience init(_ connection: GatewayConnection, _ write: RPCWrite<Echo, Echo>, _ text: String, key: RequestKey?) {
        self.init { () async throws(PostsError) -> Echo in try await connection.call(write, Echo(text: text), key: key) }
    }

    private init(_ call: @escaping @Sendable () async throws(PostsError) -> Echo) {
        Task {
            let result: Result<Echo, PostsError>
            do throws(PostsError) {
                result = .success(try await call())
            } catch {
                result = .failure(error)
            }
            self.outcome.withLock { $0 = result }
        }
    }

    var isFinished: Bool { outcome.withLock { $0 != nil } }

    /// The outcome, once it came within `limit`; nil if it did not.
    func result(within limit: Duration = .seconds(30)) async -> Result<Echo, PostsError>? {
        await firstValue(within: limit) { outcome.withLock { $0 } }
    }
}
