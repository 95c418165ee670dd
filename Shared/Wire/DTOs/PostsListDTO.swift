import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

public struct ListParams: Codable, Sendable {
    public var limit: Int?
    public var cursor: String?
    public init(limit: Int? = nil, cursor: String? = nil) { (self.limit, self.cursor) = (limit, cursor) }
}

public struct PageResult: Codable, Sendable, Equatable {
    public var posts: [PostDTO]
    /// Written as `null` on the last page, never left out.
    public var nextCursor: String?
    public init(posts: [PostDTO], nextCursor: String?) { (self.posts, self.nextCursor) = (posts, nextCursor) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(posts, forKey: .posts)
        try container.encode(nextCursor, forKey: .nextCursor)
    }
}

extension PageResult {
    public init(domain page: PostsPage) { self.init(posts: page.posts.map(PostDTO.init(domain:)), nextCursor: page.nextCursor) }
    public func toDomain() throws(PostsError) -> PostsPage {
        var posts: [Post] = []
        for (index, dto) in self.posts.enumerated() { posts.append(try dto.toDomain(field: "posts[\(index)]")) }
        return PostsPage(posts: posts, nextCursor: nextCursor)
    }
}
