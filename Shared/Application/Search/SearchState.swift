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
