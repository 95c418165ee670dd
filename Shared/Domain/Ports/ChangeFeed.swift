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
    /// The head once this process's own writes have committed: at least
    /// the sequence the newest of them took. A store that knows it answers
    /// without a read (`head()` is the default).
    func headAfterOwnWrites() async throws(PostsError) -> Int64
}

extension ChangeFeed {
    public func headAfterOwnWrites() async throws(PostsError) -> Int64 { try await head() }
}
