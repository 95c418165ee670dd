import CoreMetrics
import Synchronization

/// One method's figures on the server side, written through swift-metrics
/// (docs/OPERATIONS.md, "Metrics"): requests by outcome and how long they
/// took. Made once per method when it is registered; with no metrics
/// backend bootstrapped, every handle is swift-metrics' no-op.
final class MethodMetrics: Sendable {
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

    init(service: String, method: String) {
        dimensions = [("rpc_system", "jsonrpc"), ("rpc_service", service), ("rpc_method", method)]
        duration = CoreMetrics.Timer(label: Self.durationName, dimensions: dimensions)
        answered = Counter(label: Self.requestsName, dimensions: dimensions + [("outcome", RPCOutcome.ok.label)])
    }

    func record(_ outcome: RPCOutcome, after elapsed: Duration) {
        duration.recordNanoseconds(Int64(elapsed.components.seconds) * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
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
