import Domain
import Foundation

/// One post: read it, edit it in place (the edit action becomes save), or
/// delete it after a confirmation.
public struct PostDetailViewModel: ViewModelType, Sendable {
    public struct Input: Sendable {
        /// Load (on appearing, and to reload).
        public var load: AsyncStream<Void>
        /// Edit; while editing, the same action saves.
        public var editOrSave: AsyncStream<Void>
        public var cancelEdit: AsyncStream<Void>
        /// The fields' text after every keystroke, while editing.
        public var title: AsyncStream<String>
        public var content: AsyncStream<String>
        /// Ask to delete; then `confirmDelete` answers yes or no.
        public var delete: AsyncStream<Void>
        public var confirmDelete: AsyncStream<Bool>
        public var back: AsyncStream<Void>

        public init(load: AsyncStream<Void>, editOrSave: AsyncStream<Void>, cancelEdit: AsyncStream<Void>,
                    title: AsyncStream<String>, content: AsyncStream<String>,
                    delete: AsyncStream<Void>, confirmDelete: AsyncStream<Bool>, back: AsyncStream<Void>) {
            (self.load, self.editOrSave, self.cancelEdit, self.title, self.content) = (load, editOrSave, cancelEdit, title, content)
            (self.delete, self.confirmDelete, self.back) = (delete, confirmDelete, back)
        }
    }

    public struct Output: Sendable {
        public var state: AsyncStream<PostDetailState>
    }

    let uid: UUID
    let posts: any PostsUseCase
    let navigator: any Navigator
    let startEditing: Bool

    public init(uid: UUID, posts: any PostsUseCase, navigator: any Navigator, startEditing: Bool = false) {
        (self.uid, self.posts, self.navigator, self.startEditing) = (uid, posts, navigator, startEditing)
    }

    enum Action: Sendable { case load, editOrSave, cancelEdit, title(String), content(String), delete, confirm(Bool), back }

    public func transform(input: Input) -> Output {
        let actions = funnel([
            .mapping(input.load) { Action.load }, .mapping(input.editOrSave) { Action.editOrSave },
            .mapping(input.cancelEdit) { Action.cancelEdit }, .mapping(input.title) { Action.title($0) },
            .mapping(input.content) { Action.content($0) }, .mapping(input.delete) { Action.delete },
            .mapping(input.confirmDelete) { Action.confirm($0) }, .mapping(input.back) { Action.back },
        ])
        let (uid, posts, navigator, startEditing) = (uid, posts, navigator, startEditing)
        let state = AsyncStream<PostDetailState>.running { continuation in
            var state = PostDetailState()
            func publish() {
                state.saveEnabled = state.editing && !state.isSaving && PostRules.accepts(Post(title: state.draftTitle, content: state.draftContent))
                continuation.yield(state)
            }
            for await action in actions {
                state.error = nil
                switch action {
                case .load:
                    state.isLoading = true
                    publish()
                    do {
                        let post = try await posts.post(uid: uid)
                        state.post = post
                        if startEditing && !state.editing { state.beginEditing() }
                    } catch {
                        state.error = "\(error)"
                    }
                    state.isLoading = false
                case .editOrSave where !state.editing:
                    state.beginEditing()
                case .editOrSave:
                    guard state.saveEnabled, var post = state.post else { continue }  // invalid, or saving already
                    state.isSaving = true
                    publish()
                    post.title = state.draftTitle
                    post.content = state.draftContent
                    do {
                        // Only over what was read: an edit made elsewhere meanwhile is never overwritten.
                        state.post = try await posts.save(post, ifUnchangedSince: post.updateDate)
                        state.editing = false
                    } catch {
                        state.error = "\(error)"
                    }
                    state.isSaving = false
                case .cancelEdit:
                    state.editing = false
                case .title(let text) where state.editing:
                    state.draftTitle = text
                case .content(let text) where state.editing:
                    state.draftContent = text
                case .title, .content:
                    continue
                case .delete:
                    guard state.post != nil, !state.editing else { continue }
                    state.confirmingDelete = true
                case .confirm(false):
                    state.confirmingDelete = false
                case .confirm(true):
                    guard state.confirmingDelete else { continue }
                    state.confirmingDelete = false
                    do {
                        _ = try await posts.delete(uid: uid)
                        navigator.navigate(to: .back)
                        return  // the screen is done
                    } catch {
                        state.error = "\(error)"
                    }
                case .back:
                    navigator.navigate(to: .back)
                    return  // gone: a second Esc queued meanwhile must not close the screen below
                }
                publish()
            }
        }
        return Output(state: state)
    }
}

/// What the post screen shows.
public struct PostDetailState: Sendable, Equatable {
    public var post: Post?
    public var isLoading = false
    public var editing = false
    public var draftTitle = ""
    public var draftContent = ""
    public var saveEnabled = false
    public var isSaving = false
    public var confirmingDelete = false
    public var error: String?

    public init() {}

    mutating func beginEditing() {
        guard let post else { return }
        (editing, draftTitle, draftContent) = (true, post.title, post.content)
    }
}
