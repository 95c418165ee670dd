import Domain
import Foundation

/// What the search screen shows.
public enum SearchState: Sendable, Equatable {
    case idle
    case searching(String)
    case results(String, [SearchItem], total: SearchTotal)
    case empty(String)
    case failed(String, Problem)

    init(query: String, results: SearchResults) {
        self =
            results.hits.isEmpty
            ? .empty(query)
            : .results(query, results.hits.map(SearchItem.init), total: SearchTotal(count: results.total, exact: results.totalIsExact))
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

/// How many posts match, or at least how many when the search service
/// stopped counting (`SearchResults.totalIsExact`): "12", "1000+".
public struct SearchTotal: Sendable, Equatable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    public var count: Int
    public var exact: Bool

    public init(count: Int, exact: Bool) { (self.count, self.exact) = (count, exact) }
    public init(integerLiteral count: Int) { self.init(count: count, exact: true) }

    public var description: String { exact ? "\(count)" : "\(count)+" }
}
