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

/// "just now", "5 min ago", "3 h ago", "yesterday", "4 days ago", then the date.
public enum RelativeDate {
    public static func describe(_ date: Date, now: Date) -> String {
        let seconds = now.timeIntervalSince(date)
        switch seconds {
        case ..<(-60): return day(date)
        case ..<60: return "just now"
        case ..<3600: return "\(Int(seconds / 60)) min ago"
        case ..<86_400: return "\(Int(seconds / 3600)) h ago"
        case ..<(86_400 * 2): return "yesterday"
        case ..<(86_400 * 30): return "\(Int(seconds / 86_400)) days ago"
        default: return day(date)
        }
    }

    static func day(_ date: Date) -> String { date.formatted(Date.ISO8601FormatStyle().year().month().day()) }
}
