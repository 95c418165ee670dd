#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Every write to a store, in the order of its change sequence.
public protocol ChangeFeed: Sendable {
    /// At most `limit` changes after `sequence` (and `PostRules.maxPageBytes`
    /// of text), each uid once with its latest change; the head; and the
    /// database the sequence counts in.
    func changes(after sequence: Int64, limit: Int) async throws(PostsError) -> PostChanges
    func head() async throws(PostsError) -> Int64
    /// The sequence this process's newest committed write took, when the
    /// store knows it without a read; nil when it does not (none yet, or a
    /// store that does not keep it).
    var ownWritesHead: Int64? { get }
}

extension ChangeFeed {
    public var ownWritesHead: Int64? { nil }

    /// The head once this process's own writes have committed: at least
    /// the sequence the newest of them took, read only when the store does
    /// not know it.
    public func headAfterOwnWrites() async throws(PostsError) -> Int64 {
        if let known = ownWritesHead { return known }
        return try await head()
    }
}
