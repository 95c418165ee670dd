import Domain
import Foundation

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

public struct SearchHitDTO: Codable, Sendable, Equatable {
    public var uid: String
    public var title: String
    public var snippet: String
    /// [start, end) pairs in Unicode scalars of `snippet`.
    public var highlights: [[Int]]
    public var score: Double
}

public struct SearchResultDTO: Codable, Sendable, Equatable {
    public var hits: [SearchHitDTO]
    public var total: Int
    /// The change sequence the answering index had applied.
    public var sequence: Int64
    /// The answering worker's process id.
    public var worker: Int32

    public init(domain results: SearchResults, worker: Int32) {
        hits = results.hits.map {
            SearchHitDTO(uid: $0.uid.uuidString, title: $0.title, snippet: $0.snippet,
                         highlights: $0.highlights.map { [$0.lowerBound, $0.upperBound] }, score: $0.score)
        }
        total = results.total
        sequence = results.sequence
        self.worker = worker
    }

    public func toDomain() throws(PostsError) -> SearchResults {
        var domainHits: [SearchHit] = []
        for hit in hits {
            guard let uid = UUID(uuidString: hit.uid) else { throw .failed("search hit with a bad uid '\(hit.uid)'") }
            let ranges = hit.highlights.compactMap { $0.count == 2 && $0[0] <= $0[1] ? $0[0]..<$0[1] : nil }
            domainHits.append(SearchHit(uid: uid, title: hit.title, snippet: hit.snippet, highlights: ranges, score: hit.score))
        }
        return SearchResults(hits: domainHits, total: total, sequence: sequence)
    }
}

public struct SearchStatsResult: Codable, Sendable, Equatable {
    public var documents: Int
    /// The last change sequence applied.
    public var applied: Int64
    /// The newest change sequence this worker has heard of.
    public var head: Int64
    /// head - applied.
    public var lag: Int64
    public var worker: Int32
    /// The index's size in bytes.
    public var indexBytes: Int
    public init(documents: Int, applied: Int64, head: Int64, worker: Int32, indexBytes: Int) {
        (self.documents, self.applied, self.head, self.lag, self.worker) = (documents, applied, head, max(0, head - applied), worker)
        self.indexBytes = indexBytes
    }
}
