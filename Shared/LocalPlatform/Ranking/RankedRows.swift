/// A query's best documents by rowid, best first, with their bm25 scores,
/// and how many documents match: exactly, or at least so many.
public struct RankedRows: Sendable, Equatable {
    public var rowids: [Int64]
    public var scores: [Double]
    public var total: Int
    public var totalIsExact: Bool
    /// Matches scored: what the query cost, beside `total`.
    public var scored = 0
    /// The stems each group of the query matched by: where a hit matched,
    /// for its snippet (`ImpactRanker.instances`).
    var groups: [[Int32]] = []
    /// The stems of a query of one phrase, in order (`ImpactPhrase`): a
    /// hit matched where they follow one another.
    var phrase: [Int32] = []
}
