import Domain
import Foundation

/// A new post: a title and content, saved once, then the screen closes.
public struct CreatePostViewModel: ViewModelType, Sendable {
    /// What the person did, in the order they did it.
    public enum Action: Sendable, Equatable {
        /// A field's text after a keystroke.
        case title(String), content(String)
        case save, cancel
    }

    public struct Input: Sendable {
        public var actions: AsyncStream<Action>
        public init(actions: AsyncStream<Action>) { self.actions = actions }
    }

    public struct Output: Sendable {
        public var state: AsyncStream<CreatePostState>
    }

    let posts: any PostsUseCase
    let navigator: any Navigator

    public init(posts: any PostsUseCase, navigator: any Navigator) {
        (self.posts, self.navigator) = (posts, navigator)
    }

    public func transform(input: Input) -> Output {
        let (posts, navigator, actions) = (posts, navigator, input.actions)
        // One uid for the screen: a save retried after a timeout (which the
        // server may have stored) updates that post instead of adding a copy.
        let uid = UUID()
        let state = AsyncStream<CreatePostState>.running { continuation in
            var state = CreatePostState()
            func publish() {
                // Saved once: the screen is closing, and a second press must not make a copy.
                state.saveEnabled = !state.isSaving && state.saved == nil && PostRules.accepts(Post(title: state.title, content: state.content))
                continuation.yield(state)
            }
            publish()
            for await action in actions {
                switch action {
                case .title(let text): state.title = text
                case .content(let text): state.content = text
                case .save:
                    guard state.saveEnabled else { continue }
                    (state.isSaving, state.problem) = (true, nil)
                    publish()
                    do throws(PostsError) {
                        // No key: the uid is this form's, so a save pressed again is the same post.
                        state.saved = try await posts.save(Post(uid: uid, title: state.title, content: state.content), key: nil).uid
                        state.isSaving = false
                        publish()
                        navigator.navigate(to: .back)
                        return  // the screen is done; nothing after this is for it
                    } catch {
                        (state.problem, state.isSaving) = (Problem(error), false)
                    }
                case .cancel:
                    navigator.navigate(to: .back)
                    return
                }
                publish()
            }
        }
        return Output(state: state)
    }
}
