import Domain
import Foundation
import Majordomo
import Synchronization
import Tracing
import Wire
import WireTracing
import ZeroMQ

/// JSON-RPC calls through the gateway, with failures turned into PostsError.
/// With several gateways, calls go to one and move to the next when it dies
/// or says it is going away (`MajordomoClient`).
final class GatewayConnection: Sendable {
    /// Every gateway, in the order tried.
    let endpoints: [String]
    private let context: Context
    private let client: MajordomoClient
    private let timeout: Duration
    /// Each call's JSON-RPC id is this connection's prefix and a count:
    /// unique for as long as the connection lives, which is all an id has
    /// to be, and made without reading /dev/urandom (as `UUID()` does here,
    /// on every call).
    private let idPrefix = String(UInt64.random(in: .min ... .max), radix: 36)
    private let calls = Atomic<UInt64>(0)
    /// How long a gateway has to answer a status probe, and to accept a
    /// connection before requests fail as "no answer".
    static let probeTimeout = Duration.seconds(2)
    /// How much less than a call waits its request's budget says, at most.
    static let answerMargin = Duration.milliseconds(100)

    init(endpoints: [String], timeout: Duration, retries: Int, context: Context) throws(PostsError) {
        self.endpoints = endpoints
        self.timeout = timeout
        self.context = context
        var configuration = MajordomoClient.Configuration()
        configuration.timeout = timeout
        configuration.retries = retries
        // The gateway is there, or not, within this: no need to wait out a
        // long timeout to say that nobody is listening.
        configuration.firstConnectionWait = min(timeout, Self.probeTimeout)
        configuration.isLeaving = Self.isLeaving
        configuration.rebudget = Self.rebudget
        do {
            client = try MajordomoClient(endpoints: endpoints, configuration: configuration, context: context) { body in
                body.first.flatMap { frame in frame.withUnsafeBytes { JSONRPC.id(in: $0)?.correlationKey } }
            }
        } catch {
            throw .failed("cannot use gateway endpoint '\(endpoints.joined(separator: ","))': \(error)")
        }
    }

    /// The gateway in use now (the one that answered last).
    var endpoint: String { client.endpoint }

    /// A reply that says its gateway is going away: "shutting down" (the
    /// request was not taken) or "interrupted" (it was with a worker when
    /// the gateway stopped; its request key makes sending it again safe).
    /// Only small replies are looked at (every such answer is), and of
    /// them only the `error` member.
    @Sendable static func isLeaving(_ body: [Frame]) -> Bool {
        guard body.count == 1, body[0].count < 4096 else { return false }
        switch body[0].withUnsafeBytes({ JSONRPC.outage(in: $0) }) {
        case .shuttingDown?, .interrupted?: return true
        default: return false
        }
    }

    /// The budget a request says, in milliseconds, for a call that waits
    /// `wait`: a little less, so that the gateway's own answer when the
    /// budget runs out (-32004, or -32003 when no worker serves the
    /// service) arrives before the call gives up.
    static func told(_ wait: Duration) -> Int {
        max(1, Int(((wait - min(answerMargin, wait / 10)).seconds * 1000).rounded(.down)))
    }

    /// The request with `params._meta.timeoutMs` cut to what is left, for a
    /// request moved to another gateway.
    @Sendable static func rebudget(_ body: [Frame], remaining: Duration) -> [Frame] {
        guard body.count == 1 else { return body }
        let milliseconds = told(remaining)
        return body[0].withUnsafeBytes { bytes in
            guard let budget = RequestBudget.find(in: bytes) else { return body }
            return [Frame(budget.rewriting(bytes, to: milliseconds))]
        }
    }

    /// Calls `method` and reads its result. The request carries its time
    /// budget in `params._meta.timeoutMs`: this connection's timeout, or
    /// less when this call is made on behalf of a request that has less
    /// left (`RPCDeadline`).
    func call<Params, Result>(_ method: RPCMethod<Params, Result>, _ params: Params) async throws(PostsError) -> Result {
        try await send(method, params, key: nil)
    }

    /// Calls `write` under `key`, or under a new key of this call's own:
    /// one key for every attempt of the write, on whichever gateway, so
    /// posts-service applies it once.
    func call<Params, Result>(_ write: RPCWrite<Params, Result>, _ params: Params, key: RequestKey?) async throws(PostsError) -> Result {
        try await send(write.method, params, key: key?.text ?? Self.newKey())
    }

    /// A write's own key when its caller gave none: 128 random bits (the
    /// system's generator), in hex, unique across clients and restarts as
    /// a UUID is.
    static func newKey() -> String {
        var random = SystemRandomNumberGenerator()
        return [random.next() as UInt64, random.next()].map { word in
            let hex = String(word, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    private func send<Params, Result>(_ method: RPCMethod<Params, Result>, _ params: Params, key: String?) async throws(PostsError) -> Result {
        let budget = RPCDeadline.remaining(within: timeout)
        guard budget > .zero else { throw .timeout(seconds: 0) }
        let id = JSONRPCID.string("\(idPrefix)-\(calls.add(1, ordering: .relaxed).newValue)")
        var meta = RequestMeta(timeoutMs: Self.told(budget))
        meta.requestKey = key
        // The client span, a child of whatever this call is made for (the
        // command, or a request being served), handed on in `_meta`.
        let span = InstrumentationSystem.tracer.startSpan(method.name, context: ServiceContext.current ?? .topLevel, ofKind: .client)
        span.attributes["rpc.system"] = "jsonrpc"
        span.attributes["rpc.service"] = method.service
        span.attributes["rpc.method"] = method.name
        defer { span.end() }
        meta.carry(span.context)
        let reply: [Frame]
        do {
            let body = try JSONRPC.encodeRequest(id: id, method: method.name, params: params, meta: meta)
            reply = try await client.request(service: method.service, body: [Frame(body)], correlationID: id.correlationKey, timeout: budget)
        } catch let error as MajordomoClientError {
            switch error {
            case .timeout(_, _, let attempts, let each):
                // Refused, or nobody there at all, tells more than "no reply in time".
                guard client.hasConnected, notAdmitted() == nil else { throw unreachable(waited: each) }
                // So does a service with no worker, whose own answer from the
                // gateway came too late: asked now, once, and answered at once.
                if await hasNoWorker(method.service) { throw .unavailable(.noWorker(service: method.service)) }
                throw .timeout(seconds: Double(attempts) * each.seconds)
            case .unreachable(_, let waited): throw unreachable(waited: waited)
            case .closed: throw .failed("the connection to \(endpoint) was closed before the answer came")
            }
        } catch {
            throw .failed("cannot send to \(endpoint): \(error)")
        }
        do throws(JSONRPCError) {
            guard let frame = reply.first else { throw JSONRPCError(.internalError, "the reply has no body") }
            // Read where it arrived: the frame's bytes, copied nowhere.
            let decoded = frame.withUnsafeBytes { bytes in
                Swift.Result { () throws(JSONRPCError) in try JSONRPC.decodeResponse(bytes: bytes, as: Result.self) }
            }
            return try decoded.get()
        } catch {
            span.attributes["rpc.jsonrpc.error_code"] = error.code.rawValue
            span.setStatus(SpanStatus(code: .error, message: error.code.name))
            throw PostsError(error)
        }
    }

    /// Whether the gateway says (8/MMI) that `service` has no worker: asked
    /// only after a call timed out, to say why. False when it cannot tell.
    private func hasNoWorker(_ service: String) async -> Bool {
        let answer = try? await client.request(
            service: MDP.mmiServiceName, body: [Frame(service)], correlationID: nil, timeout: Self.probeTimeout)
        return answer?.first?.string == "404"
    }

    /// No connection to any gateway came up: say why, as far as can be
    /// told here. A gateway that answers but has no worker for the service
    /// says so itself (-32003 `noWorker`), so no question is sent first.
    private func unreachable(waited: Duration) -> PostsError {
        if let denied = endpoints.first(where: IPCAccess.isDenied), endpoints.allSatisfy(IPCAccess.isDenied) {
            return .unavailable(.permissionDenied(endpoint: denied))
        }
        if let refusal = notAdmitted() { return refusal }
        return .unavailable(.noAnswer(endpoint: endpoints.joined(separator: ","), seconds: waited.seconds))
    }

    /// `endpoint`'s own status, asked on a connection of its own (not
    /// through the gateway in use), within `probeTimeout`; nil when it does
    /// not answer.
    func probe(_ endpoint: String) async -> GatewayStatus? {
        guard let alone = try? GatewayConnection(endpoints: [endpoint], timeout: Self.probeTimeout, retries: 0, context: context) else {
            return nil
        }
        return try? await alone.call(GatewayMethod.status, NoParams())
    }

    /// No answer, and the security handshake failed: say why, not "is it running?".
    private func notAdmitted() -> PostsError? {
        guard let failure = client.handshakeFailure else { return nil }
        let keys = context.security.keys
        let detail =
            switch failure {
            case .refused:
                "its CURVE key (fingerprint \(keys.map { Curve.fingerprint($0.publicKey) } ?? "none")) is not on the gateway's allow-list"
            case .mechanismMismatch where keys == nil, .closedDuringHandshake where keys == nil:
                "the gateway requires CURVE and this client has no key (POSTS_CURVE_KEY, POSTS_GATEWAY_KEY)"
            case .mechanismMismatch:
                "this client uses CURVE and the gateway does not, on this endpoint"
            case .cryptographic:
                "the CURVE handshake failed: POSTS_GATEWAY_KEY is not this gateway's public key"
            case .closedDuringHandshake where keys != nil:
                "it closed the connection during the CURVE handshake: is POSTS_GATEWAY_KEY this gateway's public key?"
            case .closedDuringHandshake:
                "it closed the connection during the handshake"
            case .succeeded, .protocolError:
                "\(failure)"
            }
        return .unavailable(.notAdmitted(endpoint: endpoint, detail: detail))
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
