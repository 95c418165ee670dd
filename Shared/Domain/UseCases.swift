import Foundation

/// The posts use cases. Platforms implement them (a SQLite file, or the
/// services behind the gateway); callers cannot tell which.
public protocol PostsUseCase: Sendable {
    /// Newest first, `limit` at a time; pass the page's `nextCursor` for the next one.
    func posts(limit: Int, cursor: String?) async throws(PostsError) -> PostsPage
    func post(uid: UUID) async throws(PostsError) -> Post
    /// Creates or updates the post with this uid (an upsert), and returns it as
    /// stored. Saving the same post again never makes a second one.
    func save(_ post: Post) async throws(PostsError) -> Post
    /// Saves an edit of a post read before, only if nobody changed or deleted
    /// it since: `readUpdateDate` is the `updateDate` it had when read.
    /// Otherwise throws `.conflict` and saves nothing, so no edit is lost.
    func save(_ post: Post, ifUnchangedSince readUpdateDate: Date) async throws(PostsError) -> Post
    /// Saves many posts in one go (imports); returns how many were saved.
    func save(_ posts: [Post]) async throws(PostsError) -> Int
    /// Returns whether there was such a post.
    func delete(uid: UUID) async throws(PostsError) -> Bool
}

/// Every write in order, for keeping other stores (search indexes) in sync.
public protocol PostChangesUseCase: Sendable {
    func changes(after sequence: Int64, limit: Int) async throws(PostsError) -> PostChanges
    /// The newest change sequence.
    func head() async throws(PostsError) -> Int64
}

/// What is running and how it is doing.
public protocol StatusUseCase: Sendable {
    func status() async throws(PostsError) -> SystemStatus
}

/// A platform's use cases, made on demand.
public protocol UseCaseProvider: Sendable {
    func makePostsUseCase() -> any PostsUseCase
    func makePostChangesUseCase() -> any PostChangesUseCase
    func makeStatusUseCase() -> any StatusUseCase
    func makeSearchUseCase() -> any SearchUseCase
    func makeWatchUseCase() -> any PostsWatchUseCase
}

/// Tells when posts changed anywhere (another terminal, a script, an
/// import): each element is the newest change sequence. Best effort and
/// possibly coalesced; a reader that needs every change pulls
/// `PostChangesUseCase.changes(after:limit:)`.
public protocol PostsWatchUseCase: Sendable {
    func changes() -> AsyncStream<Int64>
}
