import Domain

/// Search on a SQLite file with no services: builds an index in memory from
/// the file's changes, then searches it, exactly as a search worker would.
/// Fine for a command-line search of a local file; a service keeps its index.
struct LocalFileSearchUseCase: SearchUseCase {
    let changes: LocalPostChangesUseCase

    func search(_ query: String, limit: Int, offset: Int) async throws(PostsError) -> SearchResults {
        let index = try LocalSearchIndex()
        while true {
            let page = try await changes.changes(after: try await index.appliedSequence(), limit: PostRules.pageSize.upperBound)
            let applied = try await index.apply(page)
            if page.changes.isEmpty || applied >= page.head { break }
        }
        return try await index.search(query, limit: limit, offset: offset)
    }
}
