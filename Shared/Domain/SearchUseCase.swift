#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Full-text search over posts.
public protocol SearchUseCase: Sendable {
    /// Plain words must all match, the last one as a prefix (search as you
    /// type); "quoted phrases" match as phrases.
    func search(_ query: String, limit: Int?, offset: Int?) async throws(PostsError) -> SearchResults
}
