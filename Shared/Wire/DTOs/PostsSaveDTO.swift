import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

public struct SaveParams: Codable, Sendable {
    public var post: PostDTO
    /// The post's `updateDate` when it was read: save only if it still has it.
    public var ifUnchangedSince: String?
    public init(post: PostDTO, ifUnchangedSince: String? = nil) { (self.post, self.ifUnchangedSince) = (post, ifUnchangedSince) }
}
