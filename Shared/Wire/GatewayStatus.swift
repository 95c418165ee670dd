/// The gateway's introspection document: the result of `mmi.status`.
/// `mmi.services` and `mmi.workers` answer with just their part.
public struct GatewayStatus: Sendable, Codable, Equatable {
    public struct Service: Sendable, Codable, Equatable {
        public var name: String
        public var workers: Int
        public var idleWorkers: Int
        public var queued: Int
        public var requests: Int
        public var replies: Int
        public var refused: Int
        public var latency: Latency?
        public init(name: String, workers: Int, idleWorkers: Int, queued: Int, requests: Int, replies: Int, refused: Int, latency: Latency?) {
            (self.name, self.workers, self.idleWorkers, self.queued) = (name, workers, idleWorkers, queued)
            (self.requests, self.replies, self.refused, self.latency) = (requests, replies, refused, latency)
        }
    }

    public struct Worker: Sendable, Codable, Equatable {
        public var identity: String
        public var service: String
        public var state: String
        public var handled: Int
        public var lastHeardMs: Double
        public var connectedSeconds: Double
        public init(identity: String, service: String, state: String, handled: Int, lastHeardMs: Double, connectedSeconds: Double) {
            (self.identity, self.service, self.state, self.handled) = (identity, service, state, handled)
            (self.lastHeardMs, self.connectedSeconds) = (lastHeardMs, connectedSeconds)
        }
    }

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
    public var services: [Service]
    public var workers: [Worker]
    public var totals: Totals
    public var latency: Latency?
    public var settings: Settings

    public init(uptimeSeconds: Double, services: [Service], workers: [Worker], totals: Totals, latency: Latency?, settings: Settings) {
        (self.uptimeSeconds, self.services, self.workers) = (uptimeSeconds, services, workers)
        (self.totals, self.latency, self.settings) = (totals, latency, settings)
    }
}

/// The result of `mmi.services`.
public struct GatewayServices: Sendable, Codable, Equatable {
    public var services: [GatewayStatus.Service]
    public init(services: [GatewayStatus.Service]) { self.services = services }
}

/// The result of `mmi.workers`.
public struct GatewayWorkers: Sendable, Codable, Equatable {
    public var workers: [GatewayStatus.Worker]
    public init(workers: [GatewayStatus.Worker]) { self.workers = workers }
}
