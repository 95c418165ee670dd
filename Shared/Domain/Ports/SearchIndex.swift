#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A search index that follows a change feed (written by `IndexSync`).
public protocol SearchIndex: Sendable {
    func position() async throws(PostsError) -> IndexPosition
    /// In one transaction: applies the changes above the applied sequence
    /// (a replay changes nothing), then records `position` (never moving
    /// `applied` backwards).
    func apply(_ changes: [PostChange], position: IndexPosition) async throws(PostsError)
    /// Empties the index, to be rebuilt from sequence 0 of `database`.
    func reset(database: String?) async throws(PostsError)
    func documentCount() async throws(PostsError) -> Int
    /// Merges what many small writes left (an index that keeps a segment
    /// per write), so each query reads one structure instead of many.
    /// Changes no result. `IndexSync` calls it after a large catch-up.
    func compact() async throws(PostsError)
    /// Keeps what this index built in memory for the next process that
    /// opens it (a file index's ranking postings), so that process's first
    /// search need not build it. `IndexSync.prepare` calls it.
    func keepForNextProcess() async throws(PostsError)
    /// Returns once what `apply` wrote is ready for searches without a
    /// wait: an index may make a page searchable on another thread while
    /// the next is written (a search that comes meanwhile waits for it,
    /// so no search sees less than was applied). `IndexSync` calls it at
    /// the end of each catch-up.
    func settle() async throws(PostsError)
}

extension SearchIndex {
    /// An index that keeps nothing beyond what it writes.
    public func keepForNextProcess() async throws(PostsError) {}
    /// An index whose every apply is searchable when it returns.
    public func settle() async throws(PostsError) {}
}
