/// Percentiles of recent request latencies (receipt by the broker to reply).
public struct LatencySummary: Sendable, Equatable {
    public var samples: Int
    public var p50: Duration
    public var p90: Duration
    public var p99: Duration
    public var max: Duration

    /// Nearest-rank percentiles of `samples`; nil when there are none.
    public init?(nanoseconds samples: [Int64]) {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        func rank(_ percentile: Double) -> Duration {
            let index = Int((percentile * Double(sorted.count)).rounded(.up)) - 1
            return .nanoseconds(sorted[Swift.max(0, Swift.min(sorted.count - 1, index))])
        }
        self.samples = sorted.count
        p50 = rank(0.50)
        p90 = rank(0.90)
        p99 = rank(0.99)
        max = .nanoseconds(sorted[sorted.count - 1])
    }
}
