import Domain

/// What went wrong, as a screen shows it: each kind of failure its own
/// case, so a view tells a conflict from an outage and puts an invalid
/// field's rule next to that field.
public enum Problem: Sendable, Equatable {
    /// The post changed or went elsewhere since it was read; nothing was saved.
    case conflict
    /// Nobody can do the work now (the services are down, or stopping).
    case outage(Outage)
    /// Too much waiting, or no answer in time: trying again may work.
    case slow(String)
    case notFound
    case invalid(InvalidField)
    case other(String)

    public init(_ error: PostsError) {
        switch error {
        case .conflict: self = .conflict
        case .unavailable(let outage): self = .outage(outage)
        case .busy, .timeout: self = .slow(error.description)
        case .notFound: self = .notFound
        case .invalid(let field): self = .invalid(field)
        case .tooLarge, .failed: self = .other(error.description)
        }
    }

    /// One line for a person.
    public var message: String {
        switch self {
        case .conflict: "This post was changed or deleted elsewhere since you opened it; nothing was saved."
        case .outage(let outage): "The services cannot be reached: \(outage)."
        case .slow(let detail): "The services are slow to answer: \(detail). Try again."
        case .notFound: "This post no longer exists."
        case .invalid(let field): field.description
        case .other(let detail): detail
        }
    }
}
