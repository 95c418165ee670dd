import Foundation
import Synchronization

/// Posts whose creation was acknowledged, for any client to edit, with the
/// word each was made with (to search for).
final class SharedPosts: Sendable {
    private let posts = Mutex<[(uid: UUID, word: String)]>([])

    func add(_ uid: UUID, word: String) { posts.withLock { $0.append((uid, word)) } }

    func any() -> (uid: UUID, word: String)? { posts.withLock { $0.randomElement() } }

    /// Takes one out (a client about to delete it).
    func take() -> (uid: UUID, word: String)? {
        posts.withLock { posts in posts.isEmpty ? nil : posts.remove(at: Int.random(in: posts.indices)) }
    }
}
