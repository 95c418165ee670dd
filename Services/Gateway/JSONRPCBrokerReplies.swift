import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Majordomo
import ServiceSupport
import Wire
import ZeroMQ

/// The gateway's answers in this product's format: JSON-RPC 2.0 errors for
/// refused requests, and the `mmi.*` introspection documents.
struct JSONRPCBrokerReplies: BrokerReplies {
    /// Each refusal is the Domain error it stands for (so clients read its
    /// `data`), with a message that says what the gateway saw.
    func refusal(_ refusal: BrokerRefusal, request body: [Frame]) -> [Frame] {
        var error: JSONRPCError
        switch refusal {
        case .serviceUnavailable(let service, let waited):
            error = JSONRPCError(PostsError.unavailable(.noWorker(service: service)))
            error.message = "service '\(service)' is unavailable: no worker took the request within \(Int(waited.milliseconds)) ms"
        case .clientLimit(_, let limit):
            error = JSONRPCError(PostsError.busy(.clientLimit(limit)))
            error.message = "busy: this client already has \(limit) requests outstanding; wait for replies before sending more"
        case .queueFull(let service, let limit):
            error = JSONRPCError(PostsError.busy(.queueFull(service: service, limit: limit)))
            error.message = "busy: service '\(service)' already has \(limit) requests waiting; try again shortly"
        case .workersFailed(let service, let attempts):
            error = JSONRPCError(
                PostsError.failed(
                    "request failed: \(attempts) '\(service)' worker processes stopped responding while handling it; "
                        + "it may have been carried out (sent again with its request key, a write is applied once)"))
        case .interrupted(let service):
            error = JSONRPCError(PostsError.unavailable(.interrupted(service: service)))
        case .unsupportedProtocol(let header, _):
            error = JSONRPCError(
                .invalidRequest, "this broker speaks 7/MDP 0.1 (MDPC01 for clients, MDPW01 for workers), not \(header); see docs/PROTOCOL.md",
                data: ["reason": "protocolVersion", "expected": "MDPC01", "actual": .string(header)])
        case .serviceLimit(let service, let limit):
            error = JSONRPCError(PostsError.unavailable(.noWorker(service: service)))
            error.message = "service '\(Escaped.line(service))' has no worker, and the gateway already tracks its limit of \(limit) services"
        case .invalidServiceName(let service):
            error = JSONRPCError(
                .invalidRequest,
                "service name '\(Escaped.line(service))' is not 1 to \(MDP.serviceNameLimit) of A-Z a-z 0-9 . - _; see docs/PROTOCOL.md",
                data: ["reason": "serviceName"])
        case .timeout(let service, let budget, let withWorker):
            error = JSONRPCError(PostsError.timeout(seconds: budget.milliseconds / 1000))
            error.message =
                "timeout: the request's budget of \(Int(budget.milliseconds)) ms (params._meta.timeoutMs) ran out "
                + (withWorker
                    ? "while a '\(service)' worker had it; its reply, if one comes, is dropped"
                    : "before a '\(service)' worker took it; no worker was given it")
        case .shuttingDown(let service):
            error = JSONRPCError(PostsError.unavailable(.shuttingDown))
            error.message = "the gateway is shutting down; request for '\(service)' not taken, retry shortly"
        }
        return [Frame(JSONRPC.encodeError(id: requestID(body), error))]
    }

    func introspection(service: String, request body: [Frame], snapshot: BrokerSnapshot) -> [Frame]? {
        let id = requestID(body)
        let status = GatewayStatus(snapshot)
        let data: Data?
        switch service {
        case "mmi.status": data = try? JSONRPC.encodeResult(id: id, status)
        case "mmi.services": data = try? JSONRPC.encodeResult(id: id, GatewayServices(services: status.services))
        case "mmi.workers": data = try? JSONRPC.encodeResult(id: id, GatewayWorkers(processes: status.processes))
        default: return nil
        }
        return data.map { [Frame($0)] }
    }

    /// `params._meta.timeoutMs`, read from the one body frame without
    /// copying it; a budget below zero counts as spent.
    func budget(of body: [Frame]) -> Duration? {
        guard body.count == 1 else { return nil }
        return body[0].withUnsafeBytes { RequestBudget.find(in: $0) }.map { .milliseconds(max(0, $0.milliseconds)) }
    }

    /// The body with `timeoutMs` lowered to what is left, in whole
    /// milliseconds (at least 1: the broker hands on only what has time
    /// left). A request handed on within `unchangedWithin` of arriving keeps
    /// its body as it is, not read again nor copied: the worker then
    /// believes it has up to that much more than it has, while the gateway
    /// still answers at the true deadline.
    func body(_ body: [Frame], waited: Duration, remaining: Duration) -> [Frame] {
        guard body.count == 1, waited >= Self.unchangedWithin else { return body }
        let milliseconds = max(1, Int(remaining.milliseconds))
        return body[0].withUnsafeBytes { bytes in
            guard let budget = RequestBudget.find(in: bytes), budget.milliseconds != milliseconds else { return body }
            return [Frame(budget.rewriting(bytes, to: milliseconds))]
        }
    }

    /// Queue wait below which a budget is handed on unchanged.
    static let unchangedWithin = Duration.milliseconds(5)

    private func requestID(_ body: [Frame]) -> JSONRPCID {
        guard let first = body.first, !first.isEmpty else { return .null }
        return first.withUnsafeBytes { JSONRPC.requestID(in: $0) } ?? .null
    }
}

extension GatewayStatus {
    /// The broker's snapshot as Domain's status model: sessions grouped
    /// into the processes they belong to.
    init(_ snapshot: BrokerSnapshot) {
        let configuration = snapshot.configuration
        var processes: [String: SystemStatus.Process] = [:]
        for worker in snapshot.workers {
            let key = "\(worker.service)/\(worker.pid.map { "\($0)" } ?? worker.identity)"
            var process =
                processes[key]
                ?? SystemStatus.Process(
                    service: worker.service, pid: worker.pid, name: worker.identity, sessions: 0, busy: 0, handled: 0,
                    silentMilliseconds: worker.silentFor.milliseconds, gateways: worker.brokers.isEmpty ? nil : worker.brokers)
            process.sessions += 1
            process.busy += worker.busy ? 1 : 0
            process.handled += worker.handled
            process.silentMilliseconds = min(process.silentMilliseconds, worker.silentFor.milliseconds)
            processes[key] = process
        }
        let all = processes.values.sorted { ($0.service, $0.pid ?? 0, $0.name) < ($1.service, $1.pid ?? 0, $1.name) }
        self.init(
            uptimeSeconds: snapshot.uptime.milliseconds / 1000,
            services: snapshot.services.map { service in
                SystemStatus.Service(
                    name: service.name, processes: all.filter { $0.service == service.name }.count, sessions: service.workers,
                    queued: service.queued, requests: service.requests, refused: service.refused,
                    p50Milliseconds: service.latency?.p50.milliseconds, p99Milliseconds: service.latency?.p99.milliseconds)
            },
            processes: all,
            totals: Totals(
                requests: snapshot.totals.requests, replies: snapshot.totals.replies, refused: snapshot.totals.refused,
                malformed: snapshot.totals.malformed, workersExpired: snapshot.totals.workersExpired,
                requeued: snapshot.totals.requeued),
            latency: snapshot.latency.map(Latency.init),
            settings: Settings(
                heartbeatIntervalMs: configuration.heartbeatInterval.milliseconds,
                heartbeatLiveness: configuration.heartbeatLiveness,
                queueWaitMs: configuration.queueWait.milliseconds,
                queueLimit: configuration.queueLimit, clientLimit: configuration.clientLimit)
        )
    }
}

extension GatewayStatus.Latency {
    init(_ summary: LatencySummary) {
        self.init(
            samples: summary.samples, p50Ms: summary.p50.milliseconds, p90Ms: summary.p90.milliseconds,
            p99Ms: summary.p99.milliseconds, maxMs: summary.max.milliseconds)
    }
}
