import Domain
import Foundation

/// What the posts list shows.
public struct PostsListState: Sendable, Equatable {
    public var items: [PostItem] = []
    public var isFetching = false
    public var hasMore = false
    /// Set once a page has arrived, so "no posts yet" is not shown before.
    public var loaded = false
    public var problem: Problem?

    public init() {}
}
