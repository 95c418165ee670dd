import CoreMetrics
import ZeroMQ

/// One service's figures at the gateway.
final class ServiceMetrics {
    enum Outcome: String, CaseIterable {
        case answered, busy, unavailable, timeout, failed, shuttingDown = "shutting_down", malformed
    }

    /// `answered` on its own: it is counted for every reply.
    let answered: Counter
    private let refused: [Outcome: Counter]
    let queueWait: CoreMetrics.Timer
    let duration: CoreMetrics.Timer
    let queueDepth: Gauge
    let workers: Gauge
    let sessions: Gauge
    let expiries: Counter
    let requeues: Counter
    let lateReplies: Counter

    init(service: String) {
        let labels = [("rpc_service", service)]
        func requests(_ outcome: Outcome) -> Counter {
            Counter(label: "gateway_requests_total", dimensions: labels + [("outcome", outcome.rawValue)])
        }
        answered = requests(.answered)
        refused = Dictionary(uniqueKeysWithValues: Outcome.allCases.filter { $0 != .answered }.map { ($0, requests($0)) })
        queueWait = CoreMetrics.Timer(label: "gateway_queue_wait_seconds", dimensions: labels)
        duration = CoreMetrics.Timer(label: "gateway_request_duration_seconds", dimensions: labels)
        queueDepth = Gauge(label: "gateway_queue_depth", dimensions: labels)
        workers = Gauge(label: "gateway_workers", dimensions: labels)
        sessions = Gauge(label: "gateway_worker_sessions", dimensions: labels)
        expiries = Counter(label: "gateway_worker_expiries_total", dimensions: labels)
        requeues = Counter(label: "gateway_requeues_total", dimensions: labels)
        lateReplies = Counter(label: "gateway_late_replies_total", dimensions: labels)
    }

    func count(_ outcome: Outcome) {
        if outcome == .answered { answered.increment() } else { refused[outcome]?.increment() }
    }

    static func outcome(of refusal: BrokerRefusal) -> Outcome {
        switch refusal {
        case .serviceUnavailable, .serviceLimit: .unavailable
        case .clientLimit, .queueFull: .busy
        case .workersFailed, .interrupted: .failed
        case .shuttingDown: .shuttingDown
        case .timeout: .timeout
        case .invalidServiceName, .unsupportedProtocol: .malformed
        }
    }
}
