/// The result of `search.stats`: one search process's index and its size.
public struct SearchStatsResult: Codable, Sendable, Equatable {
    public var index: SearchIndexDTO
    /// The index's size in bytes.
    public var indexBytes: Int

    public init(index: SearchIndexDTO, indexBytes: Int) { (self.index, self.indexBytes) = (index, indexBytes) }
}
