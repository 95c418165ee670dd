#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where posts are kept (a SQLite file, a PostgreSQL database, the posts
/// service behind a gateway). A port: it stores what an interactor hands it
/// and checks no rule of its own, except the ones only it can check
/// atomically (a save over an unchanged post).
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
    func save(_ post: Post, ifUnchangedSince: Date?) async throws(PostsError) -> Post
    /// Upserts distinct posts in one transaction; returns how many.
    func save(batch posts: [Post]) async throws(PostsError) -> Int
    /// Deletes, leaving a tombstone in the change feed; whether there was such a post.
    func delete(uid: UUID) async throws(PostsError) -> Bool
}

/// Every write to a store, in the order of its change sequence.
public protocol ChangeFeed: Sendable {
    /// At most `limit` changes after `sequence` (and `PostRules.maxPageBytes`
    /// of text), each uid once with its latest change; the head; and the
    /// database the sequence counts in.
    func changes(after sequence: Int64, limit: Int) async throws(PostsError) -> PostChanges
    func head() async throws(PostsError) -> Int64
}

/// How far a search index has followed a change feed.
public struct IndexPosition: Sendable, Equatable {
    public var applied: Int64
    /// The database whose sequence `applied` counts in; nil before the first change.
    public var database: String?

    public init(applied: Int64, database: String?) { (self.applied, self.database) = (applied, database) }
}

/// A search index that follows a change feed (written by `IndexSync`).
public protocol SearchIndex: Sendable {
    func position() async throws(PostsError) -> IndexPosition
    /// In one transaction: applies the changes above the applied sequence
    /// (a replay changes nothing), then records `position` (never moving
    /// `applied` backwards).
    func apply(_ changes: [PostChange], position: IndexPosition) async throws(PostsError)
    /// Empties the index, to be rebuilt from sequence 0 of `database`.
    func reset(database: String?) async throws(PostsError)
    func documentCount() async throws(PostsError) -> Int
    /// Merges what many small writes left (FTS5 keeps a segment per
    /// transaction), so each query reads one structure instead of many.
    /// Changes no result. `IndexSync` calls it after a large catch-up.
    func compact() async throws(PostsError)
}

/// Answers searches (an FTS5 index, or the search service).
public protocol SearchEngine: Sendable {
    /// `limit` and `offset` are already valid (`SearchRules.validated`).
    func search(_ query: String, limit: Int, offset: Int) async throws(PostsError) -> SearchResults
}

/// What is running: services and processes, search indexes, a post count.
public protocol StatusSource: Sendable {
    func status() async throws(PostsError) -> SystemStatus
}
