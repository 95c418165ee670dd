/// Reading the change feed, with its parameters checked.
public struct ChangesInteractor: PostChangesUseCase {
    let feed: any ChangeFeed

    public init(feed: any ChangeFeed) { self.feed = feed }

    public func changes(after sequence: Int64, limit: Int?) async throws(PostsError) -> PostChanges {
        guard sequence >= 0 else { throw .invalid("after", .outOfRange(min: 0, max: Int64.max, actual: "\(sequence)")) }
        return try await feed.changes(after: sequence, limit: try PostRules.validatedLimit(limit ?? PostRules.pageSize.upperBound))
    }

    public func head() async throws(PostsError) -> Int64 { try await feed.head() }
}

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

/// Status, in a stable order: services by name, processes by service and pid.
public struct StatusInteractor: StatusUseCase {
    let source: any StatusSource

    public init(source: any StatusSource) { self.source = source }

    public func status() async throws(PostsError) -> SystemStatus {
        var status = try await source.status()
        status.services.sort { $0.name < $1.name }
        status.processes.sort { ($0.service, $0.pid ?? 0, $0.name) < ($1.service, $1.pid ?? 0, $1.name) }
        status.searchIndexes.sort { $0.pid < $1.pid }
        return status
    }
}
