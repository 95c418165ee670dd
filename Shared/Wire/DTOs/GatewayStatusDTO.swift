import Domain

/// The gateway's introspection document: the result of `mmi.status`. Its
/// services and processes are Domain's status model as they are; the rest
/// is the gateway's own (totals, latency, settings). `mmi.services` and
/// `mmi.workers` answer with just their part.
public struct GatewayStatus: Sendable, Codable, Equatable {
    public struct Latency: Sendable, Codable, Equatable {
        public var samples: Int
        public var p50Ms: Double
        public var p90Ms: Double
        public var p99Ms: Double
        public var maxMs: Double
        public init(samples: Int, p50Ms: Double, p90Ms: Double, p99Ms: Double, maxMs: Double) {
            (self.samples, self.p50Ms, self.p90Ms, self.p99Ms, self.maxMs) = (samples, p50Ms, p90Ms, p99Ms, maxMs)
        }
    }

    public struct Totals: Sendable, Codable, Equatable {
        public var requests: Int
        public var replies: Int
        public var refused: Int
        public var malformed: Int
        public var workersExpired: Int
        public var requeued: Int
        public init(requests: Int, replies: Int, refused: Int, malformed: Int, workersExpired: Int, requeued: Int) {
            (self.requests, self.replies, self.refused) = (requests, replies, refused)
            (self.malformed, self.workersExpired, self.requeued) = (malformed, workersExpired, requeued)
        }
    }

    public struct Settings: Sendable, Codable, Equatable {
        public var heartbeatIntervalMs: Double
        public var heartbeatLiveness: Int
        public var queueWaitMs: Double
        public var queueLimit: Int
        public var clientLimit: Int
        public init(heartbeatIntervalMs: Double, heartbeatLiveness: Int, queueWaitMs: Double, queueLimit: Int, clientLimit: Int) {
            (self.heartbeatIntervalMs, self.heartbeatLiveness, self.queueWaitMs) = (heartbeatIntervalMs, heartbeatLiveness, queueWaitMs)
            (self.queueLimit, self.clientLimit) = (queueLimit, clientLimit)
        }
    }

    public var uptimeSeconds: Double
    public var services: [SystemStatus.Service]
    public var processes: [SystemStatus.Process]
    public var totals: Totals
    public var latency: Latency?
    public var settings: Settings

    public init(
        uptimeSeconds: Double, services: [SystemStatus.Service], processes: [SystemStatus.Process], totals: Totals,
        latency: Latency?, settings: Settings
    ) {
        (self.uptimeSeconds, self.services, self.processes) = (uptimeSeconds, services, processes)
        (self.totals, self.latency, self.settings) = (totals, latency, settings)
    }

    /// Sessions (MDP worker connections) serving `service`.
    public func sessions(of service: String) -> Int {
        processes.filter { $0.service == service }.reduce(0) { $0 + $1.sessions }
    }
}

/// The result of `mmi.services`.
public struct GatewayServices: Sendable, Codable, Equatable {
    public var services: [SystemStatus.Service]
    public init(services: [SystemStatus.Service]) { self.services = services }
}

/// The result of `mmi.workers`: the processes serving each service.
public struct GatewayWorkers: Sendable, Codable, Equatable {
    public var processes: [SystemStatus.Process]
    public init(processes: [SystemStatus.Process]) { self.processes = processes }
}
