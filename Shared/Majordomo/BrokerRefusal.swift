import ZeroMQ

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
    /// A worker had the request when it, or the broker, stopped: it may
    /// have been carried out.
    case interrupted(service: String)
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
            .workersFailed(let name, _), .shuttingDown(let name), .interrupted(let name), .unsupportedProtocol(_, let name),
            .serviceLimit(let name, _), .invalidServiceName(let name), .timeout(let name, _, _):
            name
        }
    }
}
