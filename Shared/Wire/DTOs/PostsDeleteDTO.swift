import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

public struct DeleteParams: Codable, Sendable {
    public var uid: String
    /// The post's `updateDate` when it was read: delete only if it still has it.
    public var ifUnchangedSince: String?
    public init(uid: String, ifUnchangedSince: String? = nil) { (self.uid, self.ifUnchangedSince) = (uid, ifUnchangedSince) }
}

public struct DeleteResult: Codable, Sendable, Equatable {
    public var deleted: Bool
    public init(deleted: Bool) { self.deleted = deleted }
}
