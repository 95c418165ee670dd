import CoreMetrics
import Domain
import Tracing
import Wire
import WireTracing
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A service's methods, each registered by its descriptor (`RPCMethod`),
/// and the one place a request becomes a handler call: its params decoded
/// as the method declares them, its `_meta` read, its deadline kept (a
/// request whose budget is gone is answered -32004 without being worked
/// on, and the rest of it bounds the calls the handler makes), its reply
/// held to the frame limit, and every failure answered as the JSON-RPC
/// error docs/PROTOCOL.md names for it.
public struct JSONRPCRouter: Sendable {
    /// The reply, and whether something may have changed.
    @usableFromInline typealias Answer =
        @Sendable (JSONRPC.IncomingRequest, RequestMeta, ContinuousClock.Instant?, Int) async throws -> (Data, wrote: Bool)

    @usableFromInline struct Entry: Sendable {
        let metrics: MethodMetrics
        let answer: Answer

        @usableFromInline init(metrics: MethodMetrics, answer: @escaping Answer) { (self.metrics, self.answer) = (metrics, answer) }
    }

    /// What became of one request.
    public struct Handled: Sendable {
        /// The reply to send.
        public let reply: Data
        /// The method asked for, when it is one of this service's.
        public let method: String?
        public let outcome: RPCOutcome
        /// The trace context of the server span it was served in (for the
        /// change notice a write publishes).
        public let context: ServiceContext?
        /// A method that writes answered with its result, and the result
        /// does not say that nothing changed (`WriteResult`).
        public let wrote: Bool
    }

    public let service: String
    public let maxReplyBytes: Int
    private let onFault: @Sendable (_ method: String, _ error: any Error) -> Void
    @usableFromInline var entries: [String: Entry] = [:]
    /// Requests for no method of this service, and requests that are not
    /// JSON-RPC at all.
    private let unknown: MethodMetrics
    private let active: Meter
    /// Every method's figures, for `rpc.stats`.
    @usableFromInline let figures = MethodFigures()
    /// The tracer bootstrapped when the router was made; nil when none
    /// was (swift-distributed-tracing's no-op): then no span, no context
    /// and no task-local is made per request.
    private let tracer: (any Tracer)?

    /// `onFault` hears of failures that are the service's own fault
    /// (internal errors), so they can be logged; bad requests are not faults.
    /// Make it after the tracer is bootstrapped (`TracingStart`).
    public init(service: String, maxReplyBytes: Int = .max, onFault: @escaping @Sendable (_ method: String, _ error: any Error) -> Void = { _, _ in })
    {
        (self.service, self.maxReplyBytes, self.onFault) = (service, maxReplyBytes, onFault)
        unknown = MethodMetrics(service: service, method: MethodMetrics.other)
        figures.add(unknown)
        let tracer = InstrumentationSystem.tracer
        self.tracer = tracer is NoOpTracer ? nil : tracer
        active = Meter(label: MethodMetrics.activeName, dimensions: [("rpc_system", "jsonrpc"), ("rpc_service", service)])
        let figures = figures
        onReply(ServerStats.method(of: service)) { _, call in try call.reply(figures.stats()) }
    }

    /// The methods registered, by name.
    public var methods: [String] { entries.keys.sorted() }

    // `on` and `onReply` are inlinable so that each service
    // specializes them for its own params and result types: unspecialized,
    // every request looked up the metadata of `RPCCall<Result>` and its
    // kin at run time (about 4,000 instructions of a posts.get's).

    /// Registers `handler` for `method`, which must be this service's.
    @inlinable
    public mutating func on<Params, Result>(
        _ method: RPCMethod<Params, Result>,
        _ handler: nonisolated(nonsending) @escaping @Sendable (Params, RPCCall<Result>) async throws -> Result
    ) {
        let metrics = entry(for: method)
        entries[method.name] = Entry(metrics: metrics) { request, meta, deadline, maxReplyBytes in
            let call = RPCCall<Result>(id: request.id, meta: meta, deadline: deadline, maxReplyBytes: maxReplyBytes)
            let result = try await handler(try Self.params(of: request, for: method), call)
            return (try call.reply(result).data, false)
        }
    }

    /// Registers `handler` for `write`, which must be this service's. It is
    /// given the request's key (`params._meta.requestKey`, checked; nil when
    /// the request carries none) to hand to the use case, which applies the
    /// write once per key; a refusal that names the key (`RequestKey.field`)
    /// is answered naming where the request carries it. A change notice
    /// follows each answer unless its result says nothing changed
    /// (`WriteResult`).
    @inlinable
    public mutating func on<Params, Result>(
        _ write: RPCWrite<Params, Result>,
        _ handler: nonisolated(nonsending) @escaping @Sendable (Params, RequestKey?, RPCCall<Result>) async throws -> Result
    ) {
        let method = write.method
        let metrics = entry(for: method, writes: true)
        entries[method.name] = Entry(metrics: metrics) { request, meta, deadline, maxReplyBytes in
            let call = RPCCall<Result>(id: request.id, meta: meta, deadline: deadline, maxReplyBytes: maxReplyBytes)
            let params = try Self.params(of: request, for: method)
            let key = try meta.requestKey.map { text throws(PostsError) in try RequestKey(text) }
            let result = try await handler(params, key, call)
            return (try call.reply(result).data, (result as? any WriteResult)?.changedSomething ?? true)
        }
    }

    /// Registers a handler that makes its reply itself (`RPCCall.fitted`).
    @inlinable
    public mutating func onReply<Params, Result>(
        _ method: RPCMethod<Params, Result>,
        _ handler: nonisolated(nonsending) @escaping @Sendable (Params, RPCCall<Result>) async throws -> RPCReply<Result>
    ) {
        let metrics = entry(for: method)
        entries[method.name] = Entry(metrics: metrics) { request, meta, deadline, maxReplyBytes in
            let call = RPCCall<Result>(id: request.id, meta: meta, deadline: deadline, maxReplyBytes: maxReplyBytes)
            return (try await handler(try Self.params(of: request, for: method), call).data, false)
        }
    }

    /// Checks that `method` may be registered here, and makes its figures.
    @usableFromInline
    mutating func entry<Params, Result>(for method: RPCMethod<Params, Result>, writes: Bool = false) -> MethodMetrics {
        precondition(method.service == service, "\(method.name) belongs to service '\(method.service)', not '\(service)'")
        // A write registered as a read would take no key and publish no change notice.
        precondition(method.writes == writes, "\(method.name) writes: register it by its RPCWrite, whose handler takes the request key")
        precondition(entries[method.name] == nil, "\(method.name) is registered twice")
        let metrics = MethodMetrics(service: service, method: method.name)
        figures.add(metrics)
        return metrics
    }

    /// A request's params as `method` declares them (its default when there are none).
    @inlinable
    static func params<Params, Result>(of request: JSONRPC.IncomingRequest, for method: RPCMethod<Params, Result>) throws -> Params {
        if let fallback = method.defaultParams { return try request.params(Params.self, or: fallback) }
        return try request.params(Params.self)
    }

    /// Serves one request body (one JSON-RPC request), and counts it.
    public nonisolated(nonsending) func handle(_ body: Data, now: ContinuousClock.Instant = .now) async -> Handled {
        await handle(read: JSONRPC.decodeRequest(body), now: now)
    }

    /// Serves one request read where its bytes arrived
    /// (`JSONRPC.decodeRequest(bytes:)`, over a frame's bytes: no copy), and
    /// counts it.
    public nonisolated(nonsending) func handle(
        read: Result<JSONRPC.IncomingRequest, JSONRPC.RequestFailure>, now: ContinuousClock.Instant = .now
    ) async -> Handled {
        active.increment()
        let handled = await serve(read, now: now)
        let metrics = handled.method.flatMap { entries[$0]?.metrics } ?? unknown
        metrics.record(handled.outcome, after: now.duration(to: .now))
        active.decrement()
        return handled
    }

    private nonisolated(nonsending) func serve(
        _ read: Result<JSONRPC.IncomingRequest, JSONRPC.RequestFailure>, now: ContinuousClock.Instant
    ) async -> Handled {
        let request: JSONRPC.IncomingRequest
        switch read {
        case .failure(let failure):
            return Handled(
                reply: JSONRPC.encodeError(id: failure.id, failure.error), method: nil,
                outcome: .error(failure.error.code), context: nil, wrote: false)
        case .success(let decoded): request = decoded
        }
        guard let entry = entries[request.method] else {
            let error = JSONRPCError.methodNotFound(request.method, service: service)
            return Handled(
                reply: JSONRPC.encodeError(id: request.id, error), method: nil, outcome: .error(error.code), context: nil,
                wrote: false)
        }
        var deadline: ContinuousClock.Instant?
        var wrote = false
        var span: (any Span)?
        let result = await JSONRPC.answering(request, maxReplyBytes: maxReplyBytes, onFault: onFault) { request in
            let meta = try request.meta()
            // The server span: a child of the caller's (the gateway's), or a
            // new trace for a caller that sent none.
            let serving = tracer?.startSpan(request.method, context: meta.context, ofKind: .server)
            span = serving
            serving?.attributes["rpc.system"] = "jsonrpc"
            serving?.attributes["rpc.service"] = service
            serving?.attributes["rpc.method"] = request.method
            if let budget = meta.timeoutMs {
                guard budget > 0 else { throw JSONRPCError.budgetSpent(method: request.method) }
                deadline = now + .milliseconds(budget)
            }
            let answer = { [deadline] () async throws -> (Data, wrote: Bool) in
                guard let deadline else { return try await entry.answer(request, meta, deadline, maxReplyBytes) }
                return try await RPCDeadline.$current.withValue(deadline) { try await entry.answer(request, meta, deadline, maxReplyBytes) }
            }
            let (reply, changed) =
                if let serving {
                    try await ServiceContext.$current.withValue(serving.context) { try await answer() }
                } else {
                    try await answer()
                }
            wrote = changed
            return reply
        }
        if let span {
            if case .error(let code) = result.outcome {
                span.attributes["rpc.jsonrpc.error_code"] = code.rawValue
                span.setStatus(SpanStatus(code: .error, message: code.name))
            }
            span.end()
        }
        return Handled(
            reply: result.reply, method: request.method, outcome: result.outcome, context: span?.context,
            wrote: wrote && result.outcome == RPCOutcome.ok)
    }
}
