import Foundation

/// Everything a posts use case can fail with, each saying what to do.
public enum PostsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A value breaks a rule; `field` names it.
    case invalid(field: String, rule: String)
    case notFound(uid: UUID)
    /// The post changed (or went) since the caller read it: nothing was saved.
    case conflict(uid: UUID)
    /// The system cannot be reached or has no one to do the work.
    case unavailable(String)
    /// The system is overloaded; try again shortly.
    case busy(String)
    case timeout(String)
    /// Something failed that the caller cannot fix.
    case failed(String)

    public var description: String {
        switch self {
        case .invalid(let field, let rule): "\(field) \(rule)"
        case .notFound(let uid): "no post with uid \(uid.uuidString)"
        case .conflict(let uid): "post \(uid.uuidString) was changed or deleted elsewhere since it was read; nothing was saved (load it again)"
        case .unavailable(let message), .busy(let message), .timeout(let message), .failed(let message): message
        }
    }
}
