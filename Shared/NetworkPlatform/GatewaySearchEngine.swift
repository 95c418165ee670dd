import Domain
import Foundation
import Wire

/// Domain's `SearchEngine` as `search.query` requests.
struct GatewaySearchEngine: SearchEngine {
    let gateway: GatewayConnection

    func search(_ query: String, limit: Int, offset: Int) async throws(PostsError) -> SearchResults {
        try await gateway.call(SearchMethod.query, SearchParams(q: query, limit: limit, offset: offset)).toDomain()
    }
}
