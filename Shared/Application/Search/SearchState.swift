import Domain
import Foundation

/// What the search screen shows.
public enum SearchState: Sendable, Equatable {
    case idle
    case searching(String)
    case results(String, [SearchItem], total: Int)
    case empty(String)
    case failed(String, Problem)

    init(query: String, results: SearchResults) {
        self = results.hits.isEmpty
            ? .empty(query)
            : .results(query, results.hits.map(SearchItem.init), total: results.total)
    }
}

/// One hit as the screen shows it.
public struct SearchItem: Sendable, Equatable, Identifiable {
    public var id: UUID
    public var title: String
    public var snippet: String
    /// Matched words in `snippet`, in Unicode scalars.
    public var highlights: [Range<Int>]

    init(_ hit: SearchHit) {
        (id, title, snippet, highlights) = (hit.uid, hit.title, hit.snippet, hit.highlights)
    }
}
