#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Everything a use case can fail with, as values a caller can act on: a
/// view tells a conflict from an outage, a script reads the field. The
/// descriptions are for people and name the value that was wrong; hints
/// about how to start things belong to the executables, not here.
public enum PostsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A value breaks a rule.
    case invalid(InvalidField)
    case notFound(uid: UUID)
    /// The post changed (or went) since the caller read it: nothing was saved.
    case conflict(uid: UUID)
    /// Nobody can do the work now; trying later may help.
    case unavailable(Outage)
    /// Too much is waiting; try again shortly.
    case busy(Busy)
    /// An answer did not come in time (the work may still have been done).
    case timeout(seconds: Double)
    /// An answer would be larger than the transport carries.
    case tooLarge(bytes: Int, limit: Int)
    /// Something failed that the caller cannot fix.
    case failed(String)

    public static func invalid(_ field: String, _ reason: InvalidField.Reason) -> PostsError {
        .invalid(InvalidField(field, reason))
    }

    public var description: String {
        switch self {
        case .invalid(let field): field.description
        case .notFound(let uid): "no post with uid \(uid.uuidString)"
        case .conflict(let uid): "post \(uid.uuidString) was changed or deleted elsewhere since it was read; nothing was saved"
        case .unavailable(let outage): outage.description
        case .busy(let busy): busy.description
        case .timeout(let seconds): "no answer within \(Self.seconds(seconds)); the request may still have been carried out"
        case .tooLarge(let bytes, let limit): "the answer would be \(bytes) bytes, over the limit of \(limit)"
        case .failed(let message): message
        }
    }

    static func seconds(_ value: Double) -> String {
        value.rounded() == value ? "\(Int(value)) s" : "\(value) s"
    }
}

/// Why nobody can do the work.
public enum Outage: Sendable, Equatable, CustomStringConvertible {
    /// Nothing answered at `endpoint` within `seconds`.
    case noAnswer(endpoint: String, seconds: Double)
    /// The gateway answered, but no process serves `service`.
    case noWorker(service: String)
    /// The system is stopping; the request was not taken.
    case shuttingDown
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
        case .store(let detail): "the store is unavailable: \(detail)"
        case .permissionDenied(let endpoint): "permission denied: this user may not use \(endpoint)"
        case .notAdmitted(let endpoint, let detail): "the gateway at \(endpoint) refused this client: \(detail)"
        }
    }
}

/// What is full.
public enum Busy: Sendable, Equatable, CustomStringConvertible {
    /// This client already has `limit` requests waiting for answers.
    case clientLimit(Int)
    /// `service` already has `limit` requests waiting for a worker.
    case queueFull(service: String, limit: Int)
    /// Another writer holds the store.
    case store

    public var description: String {
        switch self {
        case .clientLimit(let limit): "busy: this client already has \(limit) requests waiting for answers"
        case .queueFull(let service, let limit): "busy: '\(service)' already has \(limit) requests waiting"
        case .store: "busy: the store is locked by another writer"
        }
    }
}
