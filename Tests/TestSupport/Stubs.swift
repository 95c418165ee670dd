import Domain
import Foundation

/// Helpers the platform and contract tests share.
extension Post {
    public static func stub(title: String = "A title", content: String = "Some content", created: TimeInterval = 1_700_000_000) -> Post {
        Post(title: title, content: content, createDate: Date(timeIntervalSince1970: created))
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
