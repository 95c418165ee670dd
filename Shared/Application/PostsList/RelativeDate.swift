import Foundation

/// "just now", "5 min ago", "3 h ago", "yesterday", "4 days ago", then the
/// date: how the list screen and the CLI's `posts list` and `posts show`
/// write when a post was made or changed.
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
