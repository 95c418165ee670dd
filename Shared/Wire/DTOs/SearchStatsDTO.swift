import Domain

/// The result of `search.stats`: one search process's index and its size.
public struct SearchStatsResult: Codable, Sendable, Equatable {
    public var index: SearchIndexDTO
    /// The index's size in bytes.
    public var indexBytes: Int
    /// Whether the worker's ranking postings hold every post (restored or
    /// loaded after a start): it registers with the gateway only then.
    /// Absent from a worker of a build before them.
    public var rankingLoaded: Bool?

    public init(index: SearchIndexDTO, indexBytes: Int, rankingLoaded: Bool? = nil) {
        (self.index, self.indexBytes, self.rankingLoaded) = (index, indexBytes, rankingLoaded)
    }
}

/// One search process's index on the wire: what it holds, the change
/// sequence it applied and the newest it has heard of, and the difference.
public struct SearchIndexDTO: Codable, Sendable, Equatable {
    public var pid: Int32
    public var documents: Int
    public var applied: Int64
    public var head: Int64
    /// `head - applied`, never below 0: written for readers, not read back.
    public var lag: Int64

    public init(domain index: SystemStatus.SearchIndex) {
        (pid, documents, applied, head, lag) = (index.pid, index.documents, index.applied, index.head, index.lag)
    }

    public func toDomain() -> SystemStatus.SearchIndex {
        SystemStatus.SearchIndex(pid: pid, documents: documents, applied: applied, head: head)
    }
}
