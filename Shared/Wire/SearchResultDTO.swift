import Domain

/// The result of `search.query`: a page of hits, how many match, the
/// change sequence the answering index had applied, and which process
/// answered.
public struct SearchResultDTO: Codable, Sendable, Equatable {
    public var hits: [SearchHitDTO]
    /// At least this many when `totalIsExact` is false.
    public var total: Int
    public var totalIsExact: Bool
    /// The change sequence the answering index had applied.
    public var sequence: Int64
    /// The answering process's id.
    public var pid: Int32

    public init(domain results: SearchResults, pid: Int32) {
        (total, totalIsExact, sequence, self.pid) = (results.total, results.totalIsExact, results.sequence, pid)
        hits = results.hits.map(SearchHitDTO.init(domain:))
    }

    public func toDomain() throws(PostsError) -> SearchResults {
        var domain: [SearchHit] = []
        domain.reserveCapacity(hits.count)
        for (index, hit) in hits.enumerated() { domain.append(try hit.toDomain(field: "hits[\(index)]")) }
        return SearchResults(hits: domain, total: total, totalIsExact: totalIsExact, sequence: sequence)
    }
}
