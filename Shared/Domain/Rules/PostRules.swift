#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What makes a post, a page and a batch valid. Interactors apply these
/// rules; stores and transports never check them again.
public enum PostRules {
    public static let titleLength = 1...200
    /// Also bounded in bytes: a character may carry any number of combining marks.
    public static let maxTitleBytes = 2_000
    /// Content is limited in UTF-8 bytes.
    public static let maxContentBytes = 100_000
    public static let pageSize = 1...500
    public static let defaultPageSize = 20
    /// A page of posts or changes carries at most this many bytes of title
    /// and content (so it may hold fewer than its limit): a page stays a
    /// bounded message whatever the posts hold.
    public static let maxPageBytes = 2 << 20

    /// The bytes of text a post carries (title and content, UTF-8): what
    /// every bound on a page, a batch or a catch-up counts.
    public static func textBytes(title: String, content: String) -> Int {
        title.utf8.count + content.utf8.count
    }

    /// The leading rows of a page whose title and content fit in
    /// `maxPageBytes`, and always the first: what every store returns of
    /// the rows it read.
    public static func pagePrefix<Row>(_ rows: ArraySlice<Row>, text: (Row) -> (title: String, content: String)) -> ArraySlice<Row> {
        var budget = PageBudget()
        for (offset, row) in rows.enumerated() {
            let (title, content) = text(row)
            if !budget.admits(textBytes: textBytes(title: title, content: content)) { return rows.prefix(offset) }
        }
        return rows
    }

    /// `pagePrefix`'s rule for a store that reads its rows one at a time:
    /// each row is admitted while the page's text fits in `maxPageBytes`,
    /// the first always; the page ends at the first row refused.
    public struct PageBudget: Sendable {
        @usableFromInline var bytes = 0
        @usableFromInline var rows = 0

        public init() {}

        /// Whether the next row, carrying `textBytes` of title and
        /// content, belongs on the page (it is counted when it does).
        @inlinable
        public mutating func admits(textBytes: Int) -> Bool {
            guard rows == 0 || bytes + textBytes <= PostRules.maxPageBytes else { return false }
            (bytes, rows) = (bytes + textBytes, rows + 1)
            return true
        }
    }

    /// Most posts saved in one batch, and most bytes of text in one.
    public static let maxBatch = 1000
    public static let maxBatchBytes = maxPageBytes

    /// The post as it will be stored (title trimmed, dates to the
    /// millisecond), or the first rule it breaks. `field` prefixes the
    /// names in errors (`posts[3]` gives `posts[3].title`).
    public static func validated(_ post: Post, field prefix: String? = nil) throws(PostsError) -> Post {
        func name(_ field: String) -> String { prefix.map { "\($0).\(field)" } ?? field }
        var post = post
        post.title = post.title.trimmingWhiteSpace()
        if post.title.isEmpty { throw .invalid(name("title"), .empty) }
        // A text has no more characters than UTF-8 bytes: they are counted
        // (a walk over grapheme clusters) only when the bytes could be too many.
        if post.title.utf8.count > titleLength.upperBound {
            let characters = post.title.count
            guard characters <= titleLength.upperBound else {
                throw .invalid(name("title"), .tooLong(max: titleLength.upperBound, actual: characters, unit: .characters))
            }
        }
        guard post.title.utf8.count <= maxTitleBytes else {
            throw .invalid(name("title"), .tooLong(max: maxTitleBytes, actual: post.title.utf8.count, unit: .bytes))
        }
        guard post.content.utf8.count <= maxContentBytes else {
            throw .invalid(name("content"), .tooLong(max: maxContentBytes, actual: post.content.utf8.count, unit: .bytes))
        }
        // Text stores and search indexes commonly stop at U+0000 (C strings),
        // so a post holding one could be stored or found cut short: refused,
        // never changed.
        if holdsZero(post.title) { throw .invalid(name("title"), .forbiddenCharacter(0)) }
        if holdsZero(post.content) { throw .invalid(name("content"), .forbiddenCharacter(0)) }
        for (field, date) in [("createDate", post.createDate), ("updateDate", post.updateDate)] where !PostDate.inRange(date) {
            throw .invalid(name(field), .dateOutOfRange(PostDate.format(date)))
        }
        post.createDate = PostDate.rounded(post.createDate)
        post.updateDate = PostDate.rounded(post.updateDate)
        return post
    }

    /// Whether `text` holds U+0000: looked for in its bytes where they lie
    /// (the UTF-8 view's `contains` cost about 20 instructions a byte).
    private static func holdsZero(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { $0.contains(0) } ?? text.utf8.contains(0)
    }

    /// Whether `validated` would take the post (a form's save button, say).
    public static func accepts(_ post: Post) -> Bool {
        (try? validated(post)) != nil
    }

    public static func validatedLimit(_ limit: Int?, field: String = "limit") throws(PostsError) -> Int {
        let limit = limit ?? defaultPageSize
        guard pageSize.contains(limit) else {
            throw .invalid(field, .outOfRange(min: Int64(pageSize.lowerBound), max: Int64(pageSize.upperBound), actual: "\(limit)"))
        }
        return limit
    }

    public static func uid(_ text: String, field: @autoclosure () -> String = "uid") throws(PostsError) -> UUID {
        guard let uid = UUID(text: text) else { throw .invalid(field(), .notUUID(text)) }
        return uid
    }
}
