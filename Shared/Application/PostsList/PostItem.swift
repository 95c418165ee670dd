import Domain
import Foundation

/// One post as the list shows it: title, a one-line excerpt, a relative date.
public struct PostItem: Sendable, Equatable, Identifiable {
    public var id: UUID
    public var title: String
    public var excerpt: String
    public var date: String

    public init(_ post: Post, now: Date) {
        id = post.uid
        title = post.title
        let line = post.content.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        excerpt = line.count > 80 ? String(line.prefix(79)) + "…" : line
        date = RelativeDate.describe(post.updateDate, now: now)
    }
}
