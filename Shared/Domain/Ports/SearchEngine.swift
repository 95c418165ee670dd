#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Answers searches (a search index of the process's own, or the search
/// service behind a gateway).
public protocol SearchEngine: Sendable {
    /// `limit` and `offset` are already valid (`SearchRules.validated`).
    func search(_ query: String, limit: Int, offset: Int) async throws(PostsError) -> SearchResults
}
