#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How entries become posts, and posts become batches.
public enum ImportRules {
    /// The post an entry stands for, valid, or the rule it breaks (named
    /// with the entry's label). A sample entry's uid comes from userId and
    /// id, so importing the same file again duplicates nothing.
    public static func post(from entry: ImportEntry) throws(PostsError) -> Post {
        guard let title = entry.title else { throw .invalid("\(entry.label).title", .missing) }
        // A random uid only when the entry has none: making one reads the
        // kernel's random pool, which was 39% of an import's reading time.
        let uid: UUID
        if let text = entry.uid {
            uid = try PostRules.uid(text, field: "\(entry.label).uid")
        } else if let id = entry.id {
            uid = sampleUID(userId: entry.userId ?? 0, id: id)
        } else {
            uid = UUID()
        }
        let created = try entry.createDate.map { text throws(PostsError) in try PostDate.parse(text, field: "\(entry.label).createDate") }
        let post = Post(uid: uid, title: title, content: entry.content ?? entry.body ?? "", createDate: created ?? Date())
        return try PostRules.validated(post, field: entry.label)
    }

    /// A version-8 (custom) UUID made of userId and id.
    public static func sampleUID(userId: Int64, id: Int64) -> UUID {
        var bytes = withUnsafeBytes(of: userId.bigEndian, Array.init) + withUnsafeBytes(of: id.bigEndian, Array.init)
        bytes[6] = (bytes[6] & 0x0F) | 0x80  // version 8
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    /// A uid given twice is one post: the later entry wins, as it would if
    /// the entries were saved one after another. Order is otherwise kept.
    public static func lastOfEachUID(_ posts: [Post]) -> [Post] {
        var last: [UUID: Int] = [:]
        for (index, post) in posts.enumerated() { last[post.uid] = index }
        guard last.count < posts.count else { return posts }
        return posts.enumerated().filter { last[$0.element.uid] == $0.offset }.map(\.element)
    }

    /// Consecutive batches of at most `PostRules.maxBatch` posts and
    /// `PostRules.maxBatchBytes` of text (a post larger than that alone).
    public static func batches(of posts: [Post]) -> [[Post]] {
        var batches: [[Post]] = []
        var batch: [Post] = []
        var bytes = 0
        for post in posts {
            let size = PostRules.textBytes(title: post.title, content: post.content)
            if !batch.isEmpty, batch.count == PostRules.maxBatch || bytes + size > PostRules.maxBatchBytes {
                batches.append(batch)
                batch.removeAll(keepingCapacity: true)
                bytes = 0
            }
            batch.append(post)
            bytes += size
        }
        if !batch.isEmpty { batches.append(batch) }
        return batches
    }
}
