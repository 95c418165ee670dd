import Foundation

/// What makes a post valid. Both platforms and the posts service check
/// with these rules, so nothing reaches a store unvalidated.
public enum PostRules {
    public static let titleLength = 1...200
    /// Also bounded in bytes: a character may carry any number of combining marks.
    public static let maxTitleBytes = 2_000
    /// Content is limited in UTF-8 bytes.
    public static let maxContentBytes = 100_000
    public static let pageSize = 1...500
    /// A page (or batch) of posts carries at most this many bytes of title and
    /// content, so that even fully escaped JSON stays well inside the
    /// gateway's 16 MiB frame limit; a page may hold fewer than `limit` posts.
    public static let maxPageBytes = 2 << 20
    public static let defaultPageSize = 20

    /// The post as it will be stored (title trimmed), or the first rule it breaks.
    public static func validated(_ post: Post) throws(PostsError) -> Post {
        var post = post
        post.title = post.title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard titleLength.contains(post.title.count) else {
            throw post.title.isEmpty
                ? .invalid(field: "title", rule: "must not be empty")
                : .invalid(field: "title", rule: "must be at most \(titleLength.upperBound) characters (it has \(post.title.count))")
        }
        guard post.title.utf8.count <= maxTitleBytes else {
            throw .invalid(field: "title", rule: "must be at most \(maxTitleBytes) bytes of UTF-8 (it has \(post.title.utf8.count))")
        }
        guard post.content.utf8.count <= maxContentBytes else {
            throw .invalid(field: "content", rule: "must be at most \(maxContentBytes) bytes of UTF-8 (it has \(post.content.utf8.count))")
        }
        return post
    }

    /// Whether `validated` would take the post (a form's save button, say).
    public static func accepts(_ post: Post) -> Bool {
        (try? validated(post)) != nil
    }

    public static func validatedLimit(_ limit: Int?) throws(PostsError) -> Int {
        let limit = limit ?? defaultPageSize
        guard pageSize.contains(limit) else {
            throw .invalid(field: "limit", rule: "must be from \(pageSize.lowerBound) to \(pageSize.upperBound) (it is \(limit))")
        }
        return limit
    }

    public static func uid(_ text: String) throws(PostsError) -> UUID {
        guard let uid = UUID(uuidString: text) else {
            throw .invalid(field: "uid", rule: "must be a UUID such as 7F3C2A4E-0B6D-4C1A-9E55-3D2B1A0C9F11 (got '\(text)')")
        }
        return uid
    }
}
