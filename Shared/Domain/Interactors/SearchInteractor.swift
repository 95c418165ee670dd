/// Searching, with the query checked, on an engine that may first need to
/// catch up with the posts (a local index does; the search service keeps
/// its own up to date).
public struct SearchInteractor: SearchUseCase {
    let engine: any SearchEngine
    let sync: IndexSync?

    public init(engine: any SearchEngine, sync: IndexSync? = nil) { (self.engine, self.sync) = (engine, sync) }

    public func search(_ query: String, limit: Int?, offset: Int?) async throws(PostsError) -> SearchResults {
        let (limit, offset) = try SearchRules.validated(query: query, limit: limit, offset: offset)
        if let sync { _ = try await sync.catchUp() }
        return try await engine.search(query, limit: limit, offset: offset)
    }
}
