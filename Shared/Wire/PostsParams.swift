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

public struct UIDParams: Codable, Sendable {
    public var uid: String
    public init(uid: String) { self.uid = uid }
}

public struct SaveParams: Codable, Sendable {
    public var post: PostDTO
    /// The post's `updateDate` when it was read: save only if it still has it.
    public var ifUnchangedSince: String?
    public init(post: PostDTO, ifUnchangedSince: String? = nil) { (self.post, self.ifUnchangedSince) = (post, ifUnchangedSince) }
}

public struct SaveManyParams: Codable, Sendable {
    public var posts: [PostDTO]
    public init(posts: [PostDTO]) { self.posts = posts }
}

public struct ChangesParams: Codable, Sendable {
    public var after: Int64
    public var limit: Int?
    public init(after: Int64, limit: Int? = nil) { (self.after, self.limit) = (after, limit) }
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

public struct DeleteResult: Codable, Sendable, Equatable {
    public var deleted: Bool
    public init(deleted: Bool) { self.deleted = deleted }
}

public struct SaveManyResult: Codable, Sendable, Equatable {
    public var saved: Int
    public init(saved: Int) { self.saved = saved }
}

public struct ChangeDTO: Codable, Sendable, Equatable {
    public var sequence: Int64
    public var uid: String
    /// "upsert" or "delete".
    public var kind: String
    public var post: PostDTO?
}

public struct ChangesResult: Codable, Sendable, Equatable {
    public var changes: [ChangeDTO]
    public var head: Int64
    public var database: String?
}

public struct HealthResult: Codable, Sendable, Equatable {
    public var status: String
    public var service: String
    public var pid: Int32
    public init(status: String, service: String, pid: Int32) { (self.status, self.service, self.pid) = (status, service, pid) }
}

extension PageResult {
    public init(domain page: PostsPage) { self.init(posts: page.posts.map(PostDTO.init(domain:)), nextCursor: page.nextCursor) }
    public func toDomain() throws(PostsError) -> PostsPage {
        var posts: [Post] = []
        for (index, dto) in self.posts.enumerated() { posts.append(try dto.toDomain(field: "posts[\(index)]")) }
        return PostsPage(posts: posts, nextCursor: nextCursor)
    }
}

extension ChangesResult {
    public init(domain changes: PostChanges) {
        self.changes = changes.changes.map { change in
            switch change.kind {
            case .upsert(let post): ChangeDTO(sequence: change.sequence, uid: change.uid.text, kind: "upsert", post: PostDTO(domain: post))
            case .delete: ChangeDTO(sequence: change.sequence, uid: change.uid.text, kind: "delete", post: nil)
            }
        }
        head = changes.head
        database = changes.database
    }

    public func toDomain() throws(PostsError) -> PostChanges {
        var result: [PostChange] = []
        for (index, change) in changes.enumerated() {
            let uid = try PostRules.uid(change.uid, field: "changes[\(index)].uid")
            switch (change.kind, change.post) {
            case ("delete", _): result.append(PostChange(sequence: change.sequence, uid: uid, kind: .delete))
            case ("upsert", let post?):
                result.append(PostChange(sequence: change.sequence, uid: uid, kind: .upsert(try post.toDomain(field: "changes[\(index)].post"))))
            case ("upsert", nil): throw .failed("change \(change.sequence) is an upsert without a post")
            default: throw .failed("change \(change.sequence) is of a kind this client does not know: '\(change.kind)'")
            }
        }
        return PostChanges(changes: result, head: head, database: database)
    }
}
