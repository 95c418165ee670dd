import Domain
import Wire

/// Domain.SearchUseCase as requests to the `search` service.
struct NetworkSearchUseCase: SearchUseCase {
    let gateway: GatewayConnection

    func search(_ query: String, limit: Int, offset: Int) async throws(PostsError) -> SearchResults {
        try await gateway.call(SearchMethod.service, SearchMethod.query, SearchParams(q: query, limit: limit, offset: offset),
                               as: SearchResultDTO.self).toDomain()
    }
}
