/// What the broker knows at one moment, for introspection (`mmi.*`).
public struct BrokerSnapshot: Sendable, Equatable {
    public struct Service: Sendable, Equatable {
        public var name: String
        public var workers: Int
        public var idleWorkers: Int
        public var queued: Int
        public var requests: Int
        public var replies: Int
        public var refused: Int
        public var latency: LatencySummary?
    }

    public struct Worker: Sendable, Equatable {
        /// The routing id: its text when printable ASCII, else hex.
        public var identity: String
        /// The worker's process id, when its routing id says (ours do).
        public var pid: Int32?
        public var service: String
        public var busy: Bool
        public var handled: Int
        public var silentFor: Duration
        public var connectedFor: Duration
    }

    public struct Totals: Sendable, Equatable {
        public var requests = 0
        public var replies = 0
        public var refused = 0
        public var malformed = 0
        public var workersExpired = 0
        public var requeued = 0
        /// Clients answered `timeout` while a worker had their request.
        public var timedOutWithWorker = 0
        /// Worker replies dropped because their client had been answered `timeout`.
        public var lateReplies = 0
    }

    public var uptime: Duration
    public var services: [Service]
    public var workers: [Worker]
    public var totals: Totals
    public var latency: LatencySummary?
    public var configuration: BrokerConfiguration
}

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

/// The most recent latencies of one service, in a fixed-size ring.
struct LatencyWindow {
    static let capacity = 1024
    private(set) var samples: [Int64] = []
    private var next = 0

    mutating func record(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        if samples.count < Self.capacity {
            samples.append(nanoseconds)
        } else {
            samples[next] = nanoseconds
            next = (next + 1) % Self.capacity
        }
    }
}
