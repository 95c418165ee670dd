import Domain
import Foundation

/// One post: read it, edit it in place, or delete it after a confirmation.
public struct PostDetailViewModel: ViewModelType, Sendable {
    /// What the person did, in the order they did it.
    public enum Action: Sendable, Equatable {
        /// Load the post; while editing, load the latest version under the
        /// draft (after a conflict), keeping the draft.
        case load
        case edit, save, cancelEdit
        /// A field's text after a keystroke, while editing.
        case title(String), content(String)
        /// Ask to delete; then `confirmDelete` answers yes or no.
        case delete, confirmDelete(Bool)
        case back
    }

    public struct Input: Sendable {
        public var actions: AsyncStream<Action>
        public init(actions: AsyncStream<Action>) { self.actions = actions }
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

    public func transform(input: Input) -> Output {
        let (uid, posts, navigator, startEditing, actions) = (uid, posts, navigator, startEditing, input.actions)
        let state = AsyncStream<PostDetailState>.running { continuation in
            var state = PostDetailState()
            func publish() {
                state.saveEnabled = state.editing && !state.isSaving && PostRules.accepts(Post(title: state.draftTitle, content: state.draftContent))
                continuation.yield(state)
            }
            for await action in actions {
                switch action {
                case .load:
                    (state.isLoading, state.problem) = (true, nil)
                    publish()
                    do throws(PostsError) {
                        state.post = try await posts.post(uid: uid)
                        if startEditing && !state.editing { state.beginEditing() }
                    } catch {
                        state.problem = Problem(error)
                    }
                    state.isLoading = false
                case .edit where !state.editing:
                    state.beginEditing()
                case .save:
                    guard state.saveEnabled, let read = state.post else { continue }
                    (state.isSaving, state.problem) = (true, nil)
                    publish()
                    do throws(PostsError) {
                        // Only over what was read: an edit made elsewhere meanwhile is never overwritten.
                        // Each press is a write of its own (no key): pressed again after a lost
                        // answer, it is refused as a conflict rather than applied twice.
                        state.post = try await posts.edit(read, title: state.draftTitle, content: state.draftContent, key: nil)
                        state.editing = false
                    } catch {
                        state.problem = Problem(error)  // the draft stays, to save again or to copy
                    }
                    state.isSaving = false
                case .cancelEdit:
                    (state.editing, state.problem) = (false, nil)
                case .title(let text) where state.editing:
                    state.draftTitle = text
                case .content(let text) where state.editing:
                    state.draftContent = text
                case .delete where state.post != nil && !state.editing:
                    state.confirmingDelete = true
                case .confirmDelete(let yes) where state.confirmingDelete:
                    state.confirmingDelete = false
                    guard yes else { break }
                    do throws(PostsError) {
                        _ = try await posts.delete(uid: uid, key: nil)
                        navigator.navigate(to: .back)
                        return  // the screen is done; nothing after this is for it
                    } catch {
                        state.problem = Problem(error)
                    }
                case .back:
                    navigator.navigate(to: .back)
                    return
                case .edit, .title, .content, .delete, .confirmDelete:
                    continue  // not now: nothing changes
                }
                publish()
            }
        }
        return Output(state: state)
    }
}
