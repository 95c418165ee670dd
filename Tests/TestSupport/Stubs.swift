import Domain
import Foundation

/// Posts for tests, made in one place.
extension Post {
    public static func stub(title: String = "A title", content: String = "Some content", created: TimeInterval = 1_700_000_000) -> Post {
        Post(title: title, content: content, createDate: Date(timeIntervalSince1970: created))
    }

    /// A post written `minutesAgo` before `now`, never edited since (for what
    /// screens show of dates).
    public static func stub(_ title: String, content: String = "First line\nsecond line", minutesAgo: Double = 5, now: Date) -> Post {
        let date = now.addingTimeInterval(-minutesAgo * 60)
        return Post(title: title, content: content, createDate: date, updateDate: date)
    }
}

/// Every post, page by page, as a reader would walk them.
public func allPages(_ posts: any PostsUseCase, limit: Int) async throws -> [[Post]] {
    var pages: [[Post]] = []
    var cursor: String?
    repeat {
        let page = try await posts.posts(limit: limit, cursor: cursor)
        pages.append(page.posts)
        cursor = page.nextCursor
    } while cursor != nil
    return pages
}

/// The error `body` throws, as a PostsError (nil when it throws none).
public func postsError(_ body: () async throws -> Void) async -> PostsError? {
    do {
        try await body()
        return nil
    } catch let error as PostsError {
        return error
    } catch {
        return .failed("not a PostsError: \(error)")
    }
}
