#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Answers searches (an FTS5 index, or the search service).
public protocol SearchEngine: Sendable {
    /// `limit` and `offset` are already valid (`SearchRules.validated`).
    func search(_ query: String, limit: Int, offset: Int) async throws(PostsError) -> SearchResults
}
