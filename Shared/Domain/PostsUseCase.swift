#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The posts use cases, as view models and commands see them. Domain's
/// interactors implement them over a platform's ports, so callers cannot
/// tell a SQLite file from the services behind a gateway.
///
/// Every write takes the request key its caller chose (`RequestKey`): a
/// write sent again under the same key is applied once and answered as the
/// first time; under `nil`, each call is a write of its own.
public protocol PostsUseCase: Sendable {
    /// Newest first, `limit` at a time; pass the page's `nextCursor` for the next one.
    func posts(limit: Int, cursor: String?) async throws(PostsError) -> PostsPage
    func post(uid: UUID) async throws(PostsError) -> Post
    /// Creates or updates the post with this uid (an upsert), and returns it as
    /// stored. Saving the same post again never makes a second one.
    func save(_ post: Post, key: RequestKey?) async throws(PostsError) -> Post
    /// Saves a post read before only if nobody changed or deleted it since:
    /// `readUpdateDate` is the `updateDate` it had when read. Otherwise
    /// throws `.conflict` and saves nothing, so no edit is lost.
    func save(_ post: Post, ifUnchangedSince readUpdateDate: Date, key: RequestKey?) async throws(PostsError) -> Post
    /// An edit of `read`: the new title and content (nil keeps it), saved
    /// only if the post is still as it was read.
    func edit(_ read: Post, title: String?, content: String?, key: RequestKey?) async throws(PostsError) -> Post
    /// Saves at most `PostRules.maxBatch` posts at once; a uid given twice
    /// is one post (the later wins). Returns how many distinct posts were saved.
    func save(batch posts: [Post], key: RequestKey?) async throws(PostsError) -> Int
    /// Imports any number of entries, in batches; `progress` hears how many
    /// distinct posts are saved so far, and of how many. Each batch is a
    /// write of its own, under no key of the caller's.
    func importPosts(_ entries: [ImportEntry], progress: @escaping @Sendable (_ saved: Int, _ total: Int) -> Void) async throws(PostsError) -> Int
    /// Returns whether there was such a post.
    func delete(uid: UUID, key: RequestKey?) async throws(PostsError) -> Bool
    /// Deletes a post read before only if nobody changed it since:
    /// `readUpdateDate` is the `updateDate` it had when read. Otherwise
    /// throws `.conflict` (also when it is gone) and deletes nothing.
    func delete(uid: UUID, ifUnchangedSince readUpdateDate: Date, key: RequestKey?) async throws(PostsError)
    /// How many posts there are.
    func count() async throws(PostsError) -> Int
}
