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
