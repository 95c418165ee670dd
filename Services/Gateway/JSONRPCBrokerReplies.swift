import Foundation
import Majordomo
import ServiceSupport
import Wire
import ZeroMQ

/// The gateway's answers in this product's format: JSON-RPC 2.0 errors for
/// refused requests, and the `mmi.*` introspection documents.
struct JSONRPCBrokerReplies: BrokerReplies {
    func refusal(_ refusal: BrokerRefusal, request body: [Frame]) -> [Frame] {
        let error: JSONRPCError
        switch refusal {
        case .serviceUnavailable(let service, let waited):
            error = JSONRPCError(
                .serviceUnavailable,
                "service '\(service)' is unavailable: no worker took the request within \(Int(waited.milliseconds)) ms",
                data: ["service": .string(service)])
        case .clientLimit(let service, let limit):
            error = JSONRPCError(
                .busy, "busy: this client already has \(limit) requests outstanding; wait for replies before sending more",
                data: ["service": .string(service), "limit": .number(Double(limit))])
        case .queueFull(let service, let limit):
            error = JSONRPCError(
                .busy, "busy: service '\(service)' already has \(limit) requests waiting; try again shortly",
                data: ["service": .string(service), "limit": .number(Double(limit))])
        case .workersFailed(let service, let attempts):
            error = JSONRPCError(
                .internalError, "request failed: \(attempts) '\(service)' workers stopped responding while handling it",
                data: ["service": .string(service), "attempts": .number(Double(attempts))])
        case .shuttingDown(let service):
            error = JSONRPCError(
                .serviceUnavailable, "the gateway is shutting down; request for '\(service)' not taken, retry shortly",
                data: ["service": .string(service)])
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
        case "mmi.workers": data = try? JSONRPC.encodeResult(id: id, GatewayWorkers(workers: status.workers))
        default: return nil
        }
        return data.map { [Frame($0)] }
    }

    private func requestID(_ body: [Frame]) -> JSONRPCID {
        guard let first = body.first, !first.isEmpty else { return .null }
        return first.withUnsafeBytes { JSONRPC.id(in: Data($0)) } ?? .null
    }
}

extension GatewayStatus {
    init(_ snapshot: BrokerSnapshot) {
        let configuration = snapshot.configuration
        self.init(
            uptimeSeconds: snapshot.uptime.milliseconds / 1000,
            services: snapshot.services.map {
                Service(name: $0.name, workers: $0.workers, idleWorkers: $0.idleWorkers, queued: $0.queued,
                        requests: $0.requests, replies: $0.replies, refused: $0.refused, latency: $0.latency.map(Latency.init))
            },
            workers: snapshot.workers.map {
                Worker(identity: $0.identity, service: $0.service, state: $0.busy ? "busy" : "idle", handled: $0.handled,
                       lastHeardMs: $0.silentFor.milliseconds, connectedSeconds: $0.connectedFor.milliseconds / 1000)
            },
            totals: Totals(requests: snapshot.totals.requests, replies: snapshot.totals.replies, refused: snapshot.totals.refused,
                           malformed: snapshot.totals.malformed, workersExpired: snapshot.totals.workersExpired,
                           requeued: snapshot.totals.requeued),
            latency: snapshot.latency.map(Latency.init),
            settings: Settings(heartbeatIntervalMs: configuration.heartbeatInterval.milliseconds,
                               heartbeatLiveness: configuration.heartbeatLiveness,
                               queueWaitMs: configuration.queueWait.milliseconds,
                               queueLimit: configuration.queueLimit, clientLimit: configuration.clientLimit)
        )
    }
}

extension GatewayStatus.Latency {
    init(_ summary: LatencySummary) {
        self.init(samples: summary.samples, p50Ms: summary.p50.milliseconds, p90Ms: summary.p90.milliseconds,
                  p99Ms: summary.p99.milliseconds, maxMs: summary.max.milliseconds)
    }
}
