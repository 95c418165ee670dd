import Domain
import Foundation
import Majordomo
import Synchronization
import Tracing
import Wire
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
    static let probeTimeout = Duration.seconds(2)
    /// Services `mmi.service` has confirmed to have a worker.
    private let confirmed = Mutex<Set<String>>([])

    init(endpoints: [String], timeout: Duration, retries: Int, context: Context) throws(PostsError) {
        self.endpoints = endpoints
        self.timeout = timeout
        self.context = context
        var configuration = MajordomoClient.Configuration()
        configuration.timeout = timeout
        configuration.retries = retries
        configuration.isLeaving = Self.isLeaving
        configuration.rebudget = Self.rebudget
        do {
            client = try MajordomoClient(endpoints: endpoints, configuration: configuration, context: context) { body in
                body.first.flatMap { frame in frame.withUnsafeBytes { JSONRPC.id(in: Data($0))?.correlationKey } }
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
        switch JSONRPC.outage(in: Data(body[0].bytes)) {
        case .shuttingDown?, .interrupted?: return true
        default: return false
        }
    }

    /// The request with `params._meta.timeoutMs` cut to what is left, for a
    /// request moved to another gateway.
    @Sendable static func rebudget(_ body: [Frame], remaining: Duration) -> [Frame] {
        guard body.count == 1 else { return body }
        let milliseconds = max(1, Int((remaining.seconds * 1000).rounded(.up)))
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
        try await send(write.method, params, key: key?.text ?? UUID().uuidString)
    }

    private func send<Params, Result>(_ method: RPCMethod<Params, Result>, _ params: Params, key: String?) async throws(PostsError) -> Result {
        try await confirm(method.service)
        let budget = RPCDeadline.remaining(within: timeout)
        guard budget > .zero else { throw .timeout(seconds: 0) }
        let id = JSONRPCID.string(UUID().uuidString)
        var meta = RequestMeta(timeoutMs: Int((budget.seconds * 1000).rounded(.up)))
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
            case .timeout(_, _, let attempts, let each): throw .timeout(seconds: Double(attempts) * each.seconds)
            case .closed: throw .failed("the connection to \(endpoint) was closed before the answer came")
            }
        } catch {
            throw .failed("cannot send to \(endpoint): \(error)")
        }
        do {
            return try JSONRPC.decodeResponse(Data(reply.first?.bytes ?? []), as: Result.self)
        } catch {
            span.attributes["rpc.jsonrpc.error_code"] = error.code.rawValue
            span.setStatus(SpanStatus(code: .error, message: error.code.name))
            throw PostsError(error)
        }
    }

    /// Asks the gateway (8/MMI) whether `service` has a worker, once per
    /// service, so "the gateway is down" and "no worker for this service"
    /// each fail as their own error instead of waiting out a timeout. A
    /// gateway that answers "no worker" may have just restarted, its workers
    /// registering again within two heartbeats: it is asked again, until the
    /// timeout, before the answer stands.
    private func confirm(_ service: String) async throws(PostsError) {
        guard !service.hasPrefix("mmi."), !confirmed.withLock({ $0.contains(service) }) else { return }
        if let denied = endpoints.first(where: IPCAccess.isDenied), endpoints.allSatisfy(IPCAccess.isDenied) {
            throw .unavailable(.permissionDenied(endpoint: denied))
        }
        let deadline = ContinuousClock.now + timeout
        while true {
            let answer: String?
            // The gateway answers this itself, at once: a short wait tells a dead
            // gateway from a slow service without waiting out a long timeout.
            let wait = min(timeout, Self.probeTimeout)
            do {
                answer = try await client.request(service: "mmi.service", body: [Frame(service)], correlationID: nil, timeout: wait).first?.string
            } catch {
                if let refusal = notAdmitted() { throw refusal }
                throw .unavailable(.noAnswer(endpoint: endpoints.joined(separator: ","), seconds: wait.seconds))
            }
            if answer == "200" { break }
            guard ContinuousClock.now + Self.recheck < deadline else { throw .unavailable(.noWorker(service: service)) }
            try? await Task.sleep(for: Self.recheck)
        }
        confirmed.withLock { _ = $0.insert(service) }
    }

    static let recheck = Duration.milliseconds(100)

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
