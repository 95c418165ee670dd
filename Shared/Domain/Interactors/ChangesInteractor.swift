/// Reading the change feed, with its parameters checked.
public struct ChangesInteractor: PostChangesUseCase {
    let feed: any ChangeFeed

    public init(feed: any ChangeFeed) { self.feed = feed }

    public func changes(after sequence: Int64, limit: Int?) async throws(PostsError) -> PostChanges {
        guard sequence >= 0 else { throw .invalid("after", .outOfRange(min: 0, max: Int64.max, actual: "\(sequence)")) }
        return try await feed.changes(after: sequence, limit: try PostRules.validatedLimit(limit ?? PostRules.pageSize.upperBound))
    }

    public func head() async throws(PostsError) -> Int64 { try await feed.head() }

    public func headAfterWrite() async throws(PostsError) -> Int64 { try await feed.headAfterOwnWrites() }
}
