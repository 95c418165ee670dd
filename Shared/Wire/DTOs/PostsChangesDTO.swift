import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

public struct ChangesParams: Codable, Sendable {
    public var after: Int64
    public var limit: Int?
    public init(after: Int64, limit: Int? = nil) { (self.after, self.limit) = (after, limit) }
}

public struct ChangesResult: Codable, Sendable, Equatable {
    public var changes: [ChangeDTO]
    public var head: Int64
    public var database: String?
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

public struct ChangeDTO: Codable, Sendable, Equatable {
    public var sequence: Int64
    public var uid: String
    /// "upsert" or "delete".
    public var kind: String
    public var post: PostDTO?
}
