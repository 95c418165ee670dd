import CoreMetrics
import Domain
import Metrics
import Synchronization
import Wire

/// One method's figures on the server side, written through swift-metrics
/// (docs/OPERATIONS.md, "Metrics"): requests by outcome and how long they
/// took. Made once per method when it is registered; with no metrics
/// backend bootstrapped, every handle is swift-metrics' no-op.
@usableFromInline final class MethodMetrics: Sendable {
    static let requestsName = "rpc_server_requests_total"
    static let durationName = "rpc_server_duration_seconds"
    static let activeName = "rpc_server_active_requests"
    /// The method label of a request for no method of this service: a
    /// peer's free text never becomes a label.
    static let other = "_OTHER"

    private let dimensions: [(String, String)]
    private let duration: CoreMetrics.Timer
    private let answered: Counter
    private let failed = Mutex<[JSONRPCErrorCode: Counter]>([:])
    /// The same figures kept here too, for `rpc.stats`.
    let method: String
    private let counts = Atomic<Int>(0)
    private let errors = Atomic<Int>(0)
    private let window = DurationWindow()

    @usableFromInline init(service: String, method: String) {
        self.method = method
        dimensions = [("rpc_system", "jsonrpc"), ("rpc_service", service), ("rpc_method", method)]
        duration = CoreMetrics.Timer(label: Self.durationName, dimensions: dimensions)
        answered = Counter(label: Self.requestsName, dimensions: dimensions + [("outcome", RPCOutcome.ok.label)])
    }

    /// This method's figures for `rpc.stats`.
    var stats: ServerStats.Method {
        let latency = window.percentiles()
        return ServerStats.Method(
            method: method, requests: counts.load(ordering: .relaxed), errors: errors.load(ordering: .relaxed),
            p50Ms: latency?.p50, p99Ms: latency?.p99)
    }

    func record(_ outcome: RPCOutcome, after elapsed: Duration) {
        counts.add(1, ordering: .relaxed)
        if outcome != .ok { errors.add(1, ordering: .relaxed) }
        window.record(elapsed)
        duration.record(duration: elapsed)
        switch outcome {
        case .ok: answered.increment()
        case .error(let code):
            let counter = failed.withLock { counters in
                if let counter = counters[code] { return counter }
                let counter = Counter(label: Self.requestsName, dimensions: dimensions + [("outcome", outcome.label)])
                counters[code] = counter
                return counter
            }
            counter.increment()
        }
    }
}
