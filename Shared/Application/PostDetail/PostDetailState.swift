import Domain
import Foundation

/// What the post screen shows.
public struct PostDetailState: Sendable, Equatable {
    /// The post as last read or saved: an edit is saved over this version.
    public var post: Post?
    public var isLoading = false
    public var editing = false
    public var draftTitle = ""
    public var draftContent = ""
    public var saveEnabled = false
    public var isSaving = false
    public var confirmingDelete = false
    public var problem: Problem?

    public init() {}

    mutating func beginEditing() {
        guard let post else { return }
        (editing, draftTitle, draftContent) = (true, post.title, post.content)
    }
}
