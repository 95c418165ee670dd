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
