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
        /// Every broker the worker serves, when it serves several.
        public var brokers: [String] = []
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
