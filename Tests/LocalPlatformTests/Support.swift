import Domain
import Foundation
import LocalPlatform

/// A fresh SQLite file in its own directory, removed afterwards.
@discardableResult
func withDatabase<Value>(_ body: (String) async throws -> Value) async throws -> Value {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lp-\(UUID().uuidString.prefix(8))").path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    return try await body(directory + "/posts.sqlite")
}

/// The use cases on the SQLite file at `path`.
func openLocal(_ path: String) throws(PostsError) -> UseCaseProvider {
    UseCaseProvider(try LocalPlatform.open(path: path))
}

extension Post {
    static func stub(title: String = "A title", content: String = "Some content", created: TimeInterval = 1_700_000_000) -> Post {
        Post(title: title, content: content, createDate: Date(timeIntervalSince1970: created))
    }
}

/// Every post, page by page, as a reader would walk them.
func allPages(_ posts: any PostsUseCase, limit: Int) async throws -> [[Post]] {
    var pages: [[Post]] = []
    var cursor: String?
    repeat {
        let page = try await posts.posts(limit: limit, cursor: cursor)
        pages.append(page.posts)
        cursor = page.nextCursor
    } while cursor != nil
    return pages
}
