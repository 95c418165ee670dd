import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A post on the wire. Dates are ISO 8601 with milliseconds, in UTC.
public struct PostDTO: Codable, Sendable, Equatable {
    public var uid: String
    public var title: String
    public var content: String
    public var createDate: String?
    public var updateDate: String?

    public init(uid: String, title: String, content: String, createDate: String? = nil, updateDate: String? = nil) {
        (self.uid, self.title, self.content, self.createDate, self.updateDate) = (uid, title, content, createDate, updateDate)
    }

    public init(domain post: Post) {
        self.init(
            uid: post.uid.text, title: post.title, content: post.content,
            createDate: WireDate.format(post.createDate), updateDate: WireDate.format(post.updateDate))
    }

    /// Its members, in order; a nil date is left out.
    var members: KeyValuePairs<StaticString, String?> {
        ["uid": uid, "title": title, "content": content, "createDate": createDate, "updateDate": updateDate]
    }

    /// Written by `JSONWriter` (every posts.get, save and list reply), a
    /// post goes straight to the text; any other encoder gets a keyed
    /// container. JSONWriterTests holds the two to the same text.
    public func encode(to encoder: any Encoder) throws {
        if let stream = encoder as? JSONStreamEncoder { return stream.writeObject(strings: members) }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(uid, forKey: .uid)
        try container.encode(title, forKey: .title)
        try container.encode(content, forKey: .content)
        try container.encodeIfPresent(createDate, forKey: .createDate)
        try container.encodeIfPresent(updateDate, forKey: .updateDate)
    }

    /// The Domain post, or the field that is wrong. A missing create date
    /// means "now" (the store keeps the first one it saw anyway). The
    /// field's name is made only for an error: a page of changes made five
    /// strings a post for names no one read.
    public func toDomain(field prefix: @autoclosure () -> String = "post") throws(PostsError) -> Post {
        let uid = try PostRules.uid(self.uid, field: "\(prefix()).uid")
        let created = try createDate.map { text throws(PostsError) in try WireDate.parse(text, field: "\(prefix()).createDate") } ?? Date()
        let updated = try updateDate.map { text throws(PostsError) in try WireDate.parse(text, field: "\(prefix()).updateDate") }
        return Post(uid: uid, title: title, content: content, createDate: created, updateDate: updated)
    }
}

public struct UIDParams: Codable, Sendable {
    public var uid: String
    public init(uid: String) { self.uid = uid }
}
