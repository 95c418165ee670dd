#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A post. A plain value: what it means to be valid lives in `PostRules`.
public struct Post: Sendable, Equatable, Hashable, Codable {
    /// Chosen by whoever creates the post, so saving the same post twice is
    /// an update, never a duplicate.
    public var uid: UUID
    public var title: String
    public var content: String
    public var createDate: Date
    public var updateDate: Date

    public init(uid: UUID = UUID(), title: String, content: String, createDate: Date = Date(), updateDate: Date? = nil) {
        self.uid = uid
        self.title = title
        self.content = content
        self.createDate = createDate
        self.updateDate = updateDate ?? createDate
    }
}
