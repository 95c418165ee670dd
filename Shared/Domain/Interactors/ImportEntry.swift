#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One entry of an import file, as read from it: a post
/// `{"title", "content", "uid"?, "createDate"?}`, or the common sample
/// shape `{"userId", "id", "title", "body"}`. `label` names it in errors
/// (`entry 3`, `line 7`).
public struct ImportEntry: Sendable, Equatable {
    public var label: String
    public var uid: String?
    public var userId: Int64?
    public var id: Int64?
    public var title: String?
    public var content: String?
    public var body: String?
    public var createDate: String?

    public init(
        label: String, uid: String? = nil, userId: Int64? = nil, id: Int64? = nil, title: String? = nil,
        content: String? = nil, body: String? = nil, createDate: String? = nil
    ) {
        (self.label, self.uid, self.userId, self.id, self.title) = (label, uid, userId, id, title)
        (self.content, self.body, self.createDate) = (content, body, createDate)
    }
}
