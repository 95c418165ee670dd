/// Where a query is in one term's postings. Moves only forward; past the
/// last posting its rowid is `end`.
struct PostingCursor {
    static let end = UInt32.max

    let postings: TermPostings
    /// The term's inverse document frequency in this query.
    let inverseFrequency: Double
    private(set) var index = 0
    private(set) var block = 0
    private(set) var rowid: UInt32

    init(_ postings: TermPostings, inverseFrequency: Double) {
        (self.postings, self.inverseFrequency) = (postings, inverseFrequency)
        rowid = postings.rowids.first ?? Self.end
    }

    var frequency: UInt32 { postings.frequencies[index] }

    /// What the current posting's document scores for this term: bm25's
    /// part for a document of `length` tokens, times the term's inverse
    /// frequency (the priming and the search score a member alike).
    @inline(__always)
    func score(length: Double, average: Double) -> Double {
        inverseFrequency * BM25.part(frequency: Double(frequency), length: length, averageLength: average)
    }

    /// The last rowid of the current posting's block (`end` past the last).
    var blockLast: UInt32 { rowid == Self.end ? Self.end : postings.lastRowid(of: block) }

    /// No posting from here to `blockLast` scores above this (0 past the last).
    @inline(__always)
    func bound(average: Double) -> Double {
        rowid == Self.end ? 0 : inverseFrequency * postings.bound(of: block, average: average)
    }

    /// Moves to the first posting at or after `target`, galloping from
    /// where it is (a cursor mostly moves a few postings, now and then far).
    mutating func advance(to target: UInt32) {
        guard rowid < target else { return }
        let rowids = postings.rowids
        let low = rowids.firstNotBelow(target, from: index + 1)
        let found = (low, low < rowids.count ? rowids[low] : Self.end)
        (index, rowid, block) = (found.0, found.1, found.0 / TermPostings.blockSize)
    }
}
