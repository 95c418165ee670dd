import CoreMetrics
import Domain
import ServiceLifecycle

/// Sets `search_documents` and `search_lag_changes` every `period` while
/// metrics are served (a count of the index is a query: not per change).
struct IndexGauges: Service {
    static let period = Duration.seconds(2)
    let sync: IndexSync
    private let documents = Gauge(label: "search_documents")
    private let lag = Gauge(label: "search_lag_changes")

    init(sync: IndexSync) { self.sync = sync }

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                if let count = try? await sync.index.documentCount() { documents.record(count) }
                if let applied = try? await sync.index.position().applied {
                    lag.record(max(0, sync.headSeen.load(ordering: .relaxed) - applied))
                }
                try await Task.sleep(for: Self.period)
            }
        }
    }
}
