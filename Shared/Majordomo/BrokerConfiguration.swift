import ZeroMQ

/// Tunables of the broker. Defaults follow 7/MDP's reference values.
public struct BrokerConfiguration: Sendable, Equatable {
    /// How often the broker and workers send HEARTBEAT when nothing else flows.
    public var heartbeatInterval: Duration = .milliseconds(2500)
    /// Missed heartbeats after which a peer counts as dead.
    public var heartbeatLiveness: Int = 3
    /// How long a request may wait for a worker before the client is told
    /// "service unavailable".
    public var queueWait: Duration = .seconds(5)
    /// Requests a service may have waiting; past it clients are told "busy".
    public var queueLimit: Int = 10_000
    /// Requests one client may have queued or in progress; past it the
    /// client is told "busy" instead of losing replies at a high-water mark.
    public var clientLimit: Int = 1_000
    /// Services the broker keeps track of; past it, READY for a new one is
    /// answered DISCONNECT and a request for one "no worker".
    public var serviceLimit: Int = 1_000
    /// Frames one message may have.
    public var maxFrames: Int = 64
    /// Workers that may die holding one request before the client is told
    /// it failed (a request that crashes every worker is not passed on forever).
    public var maxAttempts: Int = 3
    /// On stop, how long to wait for requests already with workers.
    public var shutdownGrace: Duration = .seconds(2)

    public init() {}

    /// Silence after which a worker is expired.
    public var workerExpiry: Duration { heartbeatInterval * heartbeatLiveness }
}
