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

    /// The last rowid of the current posting's block (`end` past the last).
    var blockLast: UInt32 { rowid == Self.end ? Self.end : postings.lastRowid(of: block) }

    /// No posting from here to `blockLast` scores above this (0 past the last).
    @inline(__always)
    func bound(average: Double) -> Double {
        rowid == Self.end ? 0 : inverseFrequency * postings.bound(of: block, average: average)
    }

    /// Moves to the first posting at or after `target`: block by block
    /// while whole blocks lie before it, then galloping within one.
    mutating func advance(to target: UInt32) {
        guard rowid < target else { return }
        let rowids = postings.rowids
        let size = TermPostings.blockSize
        while block < postings.blockCount, postings.lastRowid(of: block) < target { block += 1 }
        guard block < postings.blockCount else {
            (index, rowid) = (rowids.count, Self.end)
            return
        }
        // Galloping from where it is: a cursor mostly moves a few postings.
        let start = max(index, block * size), last = min((block + 1) * size, rowids.count) - 1
        var step = 1
        while start + step <= last, rowids[start + step] < target { step *= 2 }
        var low = start + step / 2, high = min(start + step, last)
        while low < high {
            let middle = (low + high) / 2
            if rowids[middle] < target { low = middle + 1 } else { high = middle }
        }
        (index, rowid) = (low, rowids[low])
    }
}
