#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One page of posts, newest first, and where the next page starts.
public struct PostsPage: Sendable, Equatable {
    public var posts: [Post]
    /// Pass to the next call; nil on the last page.
    public var nextCursor: String?

    public init(posts: [Post], nextCursor: String?) {
        self.posts = posts
        self.nextCursor = nextCursor
    }
}
