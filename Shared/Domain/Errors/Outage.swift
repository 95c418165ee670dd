#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why nobody can do the work.
public enum Outage: Sendable, Equatable, CustomStringConvertible {
    /// Nothing answered at `endpoint` within `seconds`.
    case noAnswer(endpoint: String, seconds: Double)
    /// The gateway answered, but no process serves `service`.
    case noWorker(service: String)
    /// The system is stopping; the request was not taken.
    case shuttingDown
    /// The request was with a worker of `service` when that worker or the
    /// gateway stopped: it may have been carried out or not. Sent again
    /// with the same request key, it is applied once.
    case interrupted(service: String)
    /// The store behind the service cannot be reached.
    case store(String)
    /// `endpoint` exists but this user may not use it (another user's socket).
    case permissionDenied(endpoint: String)
    /// The gateway at `endpoint` will not let this process in (its CURVE
    /// key is not on the allow-list, or it has none where one is needed);
    /// `detail` says which.
    case notAdmitted(endpoint: String, detail: String)

    public var description: String {
        switch self {
        case .noAnswer(let endpoint, let seconds): "no answer from \(endpoint) within \(PostsError.seconds(seconds))"
        case .noWorker(let service): "no process serves '\(service)' now"
        case .shuttingDown: "the system is shutting down; the request was not taken"
        case .interrupted(let service):
            "the '\(service)' worker handling the request stopped before answering; it may have been carried out (sent again, a write is applied once)"
        case .store(let detail): "the store is unavailable: \(detail)"
        case .permissionDenied(let endpoint): "permission denied: this user may not use \(endpoint)"
        case .notAdmitted(let endpoint, let detail): "the gateway at \(endpoint) refused this client: \(detail)"
        }
    }
}
