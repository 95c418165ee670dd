import Domain
import Foundation

/// A new post: a title and content, saved once, then the screen closes.
public struct CreatePostViewModel: ViewModelType, Sendable {
    public struct Input: Sendable {
        /// The fields' text after every keystroke.
        public var title: AsyncStream<String>
        public var content: AsyncStream<String>
        public var save: AsyncStream<Void>
        public var cancel: AsyncStream<Void>

        public init(title: AsyncStream<String>, content: AsyncStream<String>, save: AsyncStream<Void>, cancel: AsyncStream<Void>) {
            (self.title, self.content, self.save, self.cancel) = (title, content, save, cancel)
        }
    }

    public struct Output: Sendable {
        public var state: AsyncStream<CreatePostState>
    }

    let posts: any PostsUseCase
    let navigator: any Navigator

    public init(posts: any PostsUseCase, navigator: any Navigator) {
        (self.posts, self.navigator) = (posts, navigator)
    }

    enum Action: Sendable { case title(String), content(String), save, cancel }

    public func transform(input: Input) -> Output {
        let actions = funnel([
            .mapping(input.title) { Action.title($0) }, .mapping(input.content) { Action.content($0) },
            .mapping(input.save) { Action.save }, .mapping(input.cancel) { Action.cancel },
        ])
        let (posts, navigator) = (posts, navigator)
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
                case .title(let text):
                    state.title = text
                case .content(let text):
                    state.content = text
                case .save:
                    guard state.saveEnabled else { continue }  // invalid, or saving already
                    state.isSaving = true
                    state.error = nil
                    publish()
                    do {
                        let saved = try await posts.save(Post(uid: uid, title: state.title, content: state.content))
                        state.saved = saved.uid
                        state.isSaving = false
                        publish()
                        navigator.navigate(to: .back)  // dismiss; the screen is done
                        return
                    } catch {
                        state.error = "\(error)"
                        state.isSaving = false
                    }
                case .cancel:
                    navigator.navigate(to: .back)
                    return  // gone: a second Esc queued meanwhile must not close the screen below
                }
                publish()
            }
        }
        return Output(state: state)
    }
}

/// What the new-post screen shows.
public struct CreatePostState: Sendable, Equatable {
    public var title = ""
    public var content = ""
    public var saveEnabled = false
    public var isSaving = false
    /// The new post's uid, once saved.
    public var saved: UUID?
    public var error: String?

    public init() {}
}
