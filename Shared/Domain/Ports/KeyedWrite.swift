#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A write made under a `RequestKey`, as a store remembers it beside the
/// key: which write it was (`operation`, with a fingerprint of what it
/// wrote), and what it answered (`answer`, text). Written here once so
/// that every store keeps the same thing.
///
/// A store that meets a key it remembers answers from it without writing;
/// one that meets the key with another operation refuses the write
/// (`reused`): a key names one write, never two, and the same key sent
/// with other content is another write.
public enum KeyedWrite: Sendable, Equatable {
    /// A save of what a post holds (its uid, title and content): neither
    /// its dates nor the date it was read at, which a client that reads
    /// again before it retries sends anew.
    case save(Post)
    case batch([Post])
    case delete(uid: UUID)

    public var operation: String {
        switch self {
        case .save(let post): return "save \(post.uid.text) \(Self.fingerprint(post).text)"
        case .batch(let posts):
            var print = Fingerprint()
            for post in posts { print.add(Self.fingerprint(post).text) }
            return "batch \(posts.first?.uid.text ?? "-") \(posts.count) \(print.text)"
        case .delete(let uid): return "delete \(uid.text)"
        }
    }

    private static func fingerprint(_ post: Post) -> Fingerprint {
        var print = Fingerprint()
        for part in [post.uid.text, post.title, post.content] { print.add(part) }
        return print
    }

    /// What a remembered key answers for this write: the first attempt's
    /// answer (`decode`d from its text), or, when the key was used for
    /// another write, the error that says so.
    public func replay<T>(_ key: RequestKey, remembered: (operation: String, answer: String), decode: (String) -> T?) throws(PostsError) -> T {
        guard remembered.operation == operation, let value = decode(remembered.answer) else {
            throw reused(key, remembered: remembered.operation)
        }
        return value
    }

    /// The error for `key`, remembered for `remembered`, sent with this write.
    public func reused(_ key: RequestKey, remembered: String) -> PostsError {
        .invalid(
            RequestKey.field,
            .malformed("'\(key.text)' was already used for another write (\(remembered)), not for \(operation); use a new key for each write"))
    }

    // MARK: answers as text

    /// A save's answer: the post as sent, with the dates the store gave it.
    public static func answer(saved post: Post) -> String {
        "\(post.createDate.timeIntervalSince1970) \(post.updateDate.timeIntervalSince1970)"
    }

    /// The post a save under this key answered, `sent` being the post the
    /// request carries (the same on every attempt); nil for an answer
    /// that is not a save's.
    public static func saved(_ sent: Post, answer: String) -> Post? {
        let parts = answer.split(separator: " ")
        guard parts.count == 2, let created = Double(parts[0]), let updated = Double(parts[1]) else { return nil }
        var post = sent
        post.createDate = Date(timeIntervalSince1970: created)
        post.updateDate = Date(timeIntervalSince1970: updated)
        return post
    }

    public static func answer(count: Int) -> String { String(count) }
    public static func count(answer: String) -> Int? { Int(answer) }

    public static func answer(deleted: Bool) -> String { deleted ? "deleted" : "absent" }
    public static func deleted(answer: String) -> Bool? {
        switch answer {
        case "deleted": true
        case "absent": false
        default: nil
        }
    }
}
