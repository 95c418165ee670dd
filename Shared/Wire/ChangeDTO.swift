import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

public struct ChangeDTO: Codable, Sendable, Equatable {
    public var sequence: Int64
    public var uid: String
    /// "upsert" or "delete".
    public var kind: String
    public var post: PostDTO?
}
