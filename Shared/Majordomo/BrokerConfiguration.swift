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

/// Why the broker answered a request itself instead of a worker.
public enum BrokerRefusal: Sendable, Equatable {
    /// No worker took the request within the queue wait.
    case serviceUnavailable(service: String, waited: Duration)
    /// The client already has `limit` requests outstanding.
    case clientLimit(service: String, limit: Int)
    /// The service already has `limit` requests waiting.
    case queueFull(service: String, limit: Int)
    /// `attempts` workers died while holding the request.
    case workersFailed(service: String, attempts: Int)
    /// The broker is stopping and takes no more requests.
    case shuttingDown(service: String)
    /// The broker already tracks `limit` services and this is a new one.
    case serviceLimit(service: String, limit: Int)
    /// The request names a service no worker could have (docs/PROTOCOL.md).
    case invalidServiceName(service: String)
    /// The client speaks another version of MDP (`header`, such as MDPC02).
    case unsupportedProtocol(header: String, service: String)
    /// The time budget the request carried (`budget`) ran out, while it
    /// waited (`withWorker` false) or while a worker had it.
    case timeout(service: String, budget: Duration, withWorker: Bool)

    public var service: String {
        switch self {
        case .serviceUnavailable(let name, _), .clientLimit(let name, _), .queueFull(let name, _),
            .workersFailed(let name, _), .shuttingDown(let name), .unsupportedProtocol(_, let name),
            .serviceLimit(let name, _), .invalidServiceName(let name), .timeout(let name, _, _):
            name
        }
    }
}

/// What the broker needs from the layer that knows the message format
/// (JSON-RPC, in this product): error replies and introspection documents.
/// The broker itself stays format-agnostic, as 7/MDP is.
public protocol BrokerReplies: Sendable {
    /// The body sent to a client whose request the broker refuses.
    func refusal(_ refusal: BrokerRefusal, request body: [Frame]) -> [Frame]
    /// The body answering a request to an internal `mmi.*` service other than
    /// `mmi.service`, or nil when there is no such service (answered "501").
    func introspection(service: String, request body: [Frame], snapshot: BrokerSnapshot) -> [Frame]?
    /// How long the client will wait for this request, as its body says;
    /// nil when it does not say. The broker answers `.timeout` when it
    /// runs out, and hands a worker only a request with time left.
    func budget(of body: [Frame]) -> Duration?
    /// The body as a worker receives it, `remaining` of its budget left.
    func body(_ body: [Frame], withRemaining remaining: Duration) -> [Frame]
}

extension BrokerReplies {
    /// A format that carries no budget: requests wait the queue wait only.
    public func budget(of body: [Frame]) -> Duration? { nil }
    public func body(_ body: [Frame], withRemaining remaining: Duration) -> [Frame] { body }
}
