import Metrics
import Observability
import Synchronization

/// How many of something are open (connections, change streams), how
/// many may be, and a gauge of it for `--metrics`. Each `open()` is
/// matched by one `close()`, refused or not.
final class OpenCount: Sendable {
    /// Served at once; one more is refused.
    let limit: Int
    private let current = Atomic<Int>(0)
    private let gauge: Gauge

    init(limit: Int, gauge: MetricCatalog.Entry) {
        self.limit = limit
        self.gauge = Gauge(label: gauge.name)
    }

    /// Counts one more; false when it is one past the limit.
    func open() -> Bool {
        let now = current.add(1, ordering: .relaxed).newValue
        gauge.record(now)
        return now <= limit
    }

    func close() { gauge.record(current.subtract(1, ordering: .relaxed).newValue) }
}

extension OpenCount {
    /// Connections held only to be answered 503: past `limit` and these,
    /// the server stops accepting until one closes.
    static let refusals = 64

    /// Connections open at once, refusals included.
    var ceiling: Int { limit + Self.refusals }
}
