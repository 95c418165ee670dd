#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where posts are kept (a SQLite file, a PostgreSQL database, the posts
/// service behind a gateway). A port: it stores what an interactor hands it
/// and checks no rule of its own, except the ones only it can check
/// atomically (a save over an unchanged post).
///
/// Every write takes its request key (`RequestKey`), so that no write can
/// be added without deciding what a retry of it does. A write under a key
/// is applied once per key: the store remembers the key and the write's
/// answer in the write's own transaction, and answers a later write under
/// that key from it (`KeyedWrite`), or refuses one that is another write.
/// A write under `nil` is applied each time.
public protocol PostStore: Sendable {
    /// Newest first (createDate, then uid, descending), at most `limit` posts
    /// and `PostRules.maxPageBytes` of text; the cursor is the store's own.
    func page(limit: Int, after cursor: String?) async throws(PostsError) -> PostsPage
    /// The post, or nil when there is none.
    func post(uid: UUID) async throws(PostsError) -> Post?
    /// Upserts: keeps the first createDate, stamps updateDate with the
    /// store's clock and the write with the next change sequence. With
    /// `ifUnchangedSince`, saves only if the stored post has that updateDate
    /// (to the millisecond), in the same transaction; else throws `.conflict`.
    func save(_ post: Post, ifUnchangedSince: Date?, key: RequestKey?) async throws(PostsError) -> Post
    /// Upserts distinct posts in one transaction; returns how many.
    func save(batch posts: [Post], key: RequestKey?) async throws(PostsError) -> Int
    /// Deletes, leaving a tombstone in the change feed; whether there was
    /// such a post. With `ifUnchangedSince`, deletes only if the stored
    /// post has that updateDate (to the millisecond), in the same
    /// transaction; else throws `.conflict` (a post that is gone too).
    func delete(uid: UUID, ifUnchangedSince: Date?, key: RequestKey?) async throws(PostsError) -> Bool
    /// How many posts there are (tombstones are not posts).
    func count() async throws(PostsError) -> Int
}

extension PostStore {
    /// Deletes whatever the post is now.
    public func delete(uid: UUID, key: RequestKey?) async throws(PostsError) -> Bool {
        try await delete(uid: uid, ifUnchangedSince: nil, key: key)
    }
}
