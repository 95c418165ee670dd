import Domain
import Foundation

/// What the new-post screen shows.
public struct CreatePostState: Sendable, Equatable {
    public var title = ""
    public var content = ""
    public var saveEnabled = false
    public var isSaving = false
    /// The new post's uid, once saved.
    public var saved: UUID?
    public var problem: Problem?

    public init() {}
}
