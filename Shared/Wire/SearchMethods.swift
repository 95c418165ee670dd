import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

public enum SearchMethod {
    public static let service = "search"
    public static let query = "search.query"
    public static let stats = "search.stats"
    public static let health = "search.health"
}

public struct SearchParams: Codable, Sendable {
    public var q: String
    public var limit: Int?
    public var offset: Int?
    public init(q: String, limit: Int? = nil, offset: Int? = nil) { (self.q, self.limit, self.offset) = (q, limit, offset) }
}

/// The result of `search.query`: Domain's results as they are (a hit's
/// highlights are [start, end) pairs in Unicode scalars of its snippet),
/// and which process answered.
public struct SearchResultDTO: Codable, Sendable, Equatable {
    public var hits: [SearchHit]
    /// At least this many when `totalIsExact` is false.
    public var total: Int
    public var totalIsExact: Bool
    /// The change sequence the answering index had applied.
    public var sequence: Int64
    /// The answering process's id.
    public var pid: Int32

    public init(domain results: SearchResults, pid: Int32) {
        (hits, total, totalIsExact, sequence, self.pid) = (results.hits, results.total, results.totalIsExact, results.sequence, pid)
    }

    public func toDomain() -> SearchResults { SearchResults(hits: hits, total: total, totalIsExact: totalIsExact, sequence: sequence) }
}

/// The result of `search.stats`: Domain's view of one search process's
/// index (with its lag), and the index's size.
public struct SearchStatsResult: Codable, Sendable, Equatable {
    public var index: SystemStatus.SearchIndex
    /// The index's size in bytes.
    public var indexBytes: Int

    public init(index: SystemStatus.SearchIndex, indexBytes: Int) { (self.index, self.indexBytes) = (index, indexBytes) }
}
