/// The result of `search.stats`: one search process's index and its size.
public struct SearchStatsResult: Codable, Sendable, Equatable {
    public var index: SearchIndexDTO
    /// The index's size in bytes.
    public var indexBytes: Int
    /// Whether queries of words are ranked by the worker's ranking postings
    /// (loaded after a start); until then FTS5 ranks every match. Absent
    /// from a worker that has none.
    public var rankingLoaded: Bool?

    public init(index: SearchIndexDTO, indexBytes: Int, rankingLoaded: Bool? = nil) {
        (self.index, self.indexBytes, self.rankingLoaded) = (index, indexBytes, rankingLoaded)
    }
}
