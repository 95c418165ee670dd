import Domain
import Foundation

/// A post's version as HTTP carries it: a strong ETag made of its update
/// date to the millisecond (the precision every store keeps), so a post
/// read again unchanged has the same tag, and any save gives it a new one.
enum ETag {
    static func of(_ post: Post) -> String { "\"\(PostDate.milliseconds(post.updateDate))\"" }

    /// Whether `header` (an If-Match or If-None-Match value: `*`, or tags
    /// separated by commas) names `post`'s tag. Weak tags (`W/"…"`) never
    /// match, as RFC 9110's strong comparison says for If-Match.
    static func matches(_ header: String, _ post: Post) -> Bool {
        let tag = of(post)
        return header.split(separator: ",").contains { part in
            let candidate = part.trimmingCharacters(in: .whitespaces)
            return candidate == "*" || candidate == tag
        }
    }
}
