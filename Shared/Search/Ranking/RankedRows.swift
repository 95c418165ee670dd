/// A query's best documents by rowid, best first, with their bm25 scores,
/// and how many documents match: exactly, or at least so many.
public struct RankedRows: Sendable, Equatable {
    public var rowids: [Int64]
    public var scores: [Double]
    public var total: Int
    public var totalIsExact: Bool
    /// Matches scored: what the query cost, beside `total`.
    public var scored = 0
    /// The query's terms by their stems, in order: where a hit matched,
    /// for its snippet (`ImpactRanker.instances`).
    var terms: [QueryTerm] = []
}

extension RankedRows {
    init(_ found: ImpactSearch.Result, terms: [QueryTerm]) {
        self.init(
            rowids: found.ranked.map(\.rowid), scores: found.ranked.map(\.score), total: found.total, totalIsExact: found.isExact,
            scored: found.scored, terms: terms)
    }
}
