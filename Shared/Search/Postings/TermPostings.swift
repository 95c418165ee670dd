/// One tier of a term's postings (`TermTiers`): documents that hold it, in
/// rowid order, each with its weighted frequency (title matches count
/// `ImpactIndex`'s title weight each), cut in blocks of `blockSize` with
/// the best bm25 part any document of the block can have. A query skips
/// every block whose best cannot reach its page (block-max), and a whole
/// tier whose best cannot (`bound(average:)`).
///
/// A block's best is taken at the average document length of when the
/// block was begun; bm25's part of a match grows with the average by at
/// most its ratio (`bound(of:average:)`), so the bound holds however the
/// average moves. Removed documents stay until the postings are rebuilt;
/// they only make a bound looser.
struct TermPostings {
    static let blockSize = 128

    private(set) var rowids: ContiguousArray<UInt32> = []
    private(set) var frequencies: ContiguousArray<UInt32> = []
    /// Each block's best part, at `blockAverages`' average length.
    private(set) var blockBests: ContiguousArray<Double> = []
    private(set) var blockAverages: ContiguousArray<Double> = []
    /// Each block's best over its average: its bound at a larger average is
    /// this times that average, with no division in a query's inner loop.
    private(set) var blockScales: ContiguousArray<Double> = []
    /// Documents that hold the term now (removed ones not counted).
    var documents = 0
    /// The best part of any block, and the smallest average any was taken at.
    private(set) var best = 0.0
    private(set) var smallestAverage = Double.infinity

    var blockCount: Int { blockBests.count }

    init() {}

    /// Its postings and bounds as `init(from:)` reads them back (`StoredPostings`).
    func store(into writer: inout StoredWriter) {
        writer.ascending(rowids)
        writer.unsigned(frequencies)
        for values in [blockBests, blockAverages, blockScales] { writer.doubles(values) }
        writer.varint(documents)
        writer.double(best)
        writer.double(smallestAverage)
    }

    init(from reader: inout StoredReader) throws(StoredPostingsError) {
        rowids = try reader.ascending()
        frequencies = try reader.unsigned()
        (blockBests, blockAverages, blockScales) = (try reader.doubles(), try reader.doubles(), try reader.doubles())
        documents = try reader.count(atMost: rowids.count)
        (best, smallestAverage) = (try reader.double(), try reader.double())
        let blocks = (rowids.count + Self.blockSize - 1) / Self.blockSize
        guard frequencies.count == rowids.count, [blockBests.count, blockAverages.count, blockScales.count].allSatisfy({ $0 == blocks })
        else { throw .damaged("a term's postings and blocks disagree at byte \(reader.offset)") }
    }

    /// Adds a document past every other (rowids only grow).
    mutating func append(rowid: UInt32, frequency: UInt32, length: Int32, average: Double) {
        precondition(rowids.last.map { $0 < rowid } ?? true, "postings are appended in rowid order")
        if rowids.count % Self.blockSize == 0 {
            blockBests.append(0)
            blockAverages.append(average)
            blockScales.append(0)
        }
        // Either: malloc may round one array's room up and not the other's.
        if rowids.count == rowids.capacity || frequencies.count == frequencies.capacity { grow() }
        rowids.append(rowid)
        frequencies.append(frequency)
        documents += 1
        let block = blockBests.count - 1
        let part = BM25.part(frequency: Double(frequency), length: Double(length), averageLength: blockAverages[block])
        if part > blockBests[block] {
            blockBests[block] = part
            blockScales[block] = part / blockAverages[block]
        }
        if part > best { best = part }
        smallestAverage = min(smallestAverage, blockAverages[block])
    }

    /// How much a full array of more than `doublingUpTo` postings grows
    /// by: an eighth, not twice as an array would, so that a worker whose
    /// postings grow as posts come (one that follows an import) holds at
    /// most an eighth more than it uses of a common word's, which are
    /// nearly all of them; each posting is then copied about eight times
    /// over its growth, a small cost beside tokenizing. Smaller arrays
    /// double, so that rare words do not reallocate at every posting.
    static let growth = 8
    static let doublingUpTo = 1024

    private mutating func grow() {
        let count = rowids.count
        let capacity = count + (count < Self.doublingUpTo ? max(4, count) : count / Self.growth)
        // Copied into storage of that size: `reserveCapacity` may double.
        func grown<T>(_ array: ContiguousArray<T>) -> ContiguousArray<T> {
            ContiguousArray(unsafeUninitializedCapacity: capacity) { buffer, initialized in
                array.withUnsafeBufferPointer { source in _ = buffer.initialize(fromContentsOf: source) }
                initialized = array.count
            }
        }
        (rowids, frequencies) = (grown(rowids), grown(frequencies))
    }

    /// The same, each array holding no more than it needs: an array grown by
    /// appending keeps up to twice its size (a third of the whole index).
    mutating func trim() {
        func trimmed<T>(_ array: ContiguousArray<T>) -> ContiguousArray<T> {
            var copy = ContiguousArray<T>()
            copy.reserveCapacity(array.count)
            copy.append(contentsOf: array)
            return copy
        }
        (rowids, frequencies) = (trimmed(rowids), trimmed(frequencies))
        (blockBests, blockAverages, blockScales) = (trimmed(blockBests), trimmed(blockAverages), trimmed(blockScales))
    }

    /// Each block's best taken again at `average` (the index's average moved
    /// far from the ones they were taken at, so bounds had grown loose).
    mutating func rebase(lengths: UnsafeBufferPointer<Int32>, average: Double) {
        best = 0
        for block in blockBests.indices {
            var blockBest = 0.0
            for index in (block * Self.blockSize)..<min((block + 1) * Self.blockSize, rowids.count) {
                let rowid = Int(rowids[index])
                guard rowid < lengths.count, lengths[rowid] >= 0 else { continue }
                let part = BM25.part(frequency: Double(frequencies[index]), length: Double(lengths[rowid]), averageLength: average)
                blockBest = max(blockBest, part)
            }
            (blockBests[block], blockAverages[block], blockScales[block]) = (blockBest, average, blockBest / average)
            best = max(best, blockBest)
        }
        smallestAverage = average
    }

    /// Whether it holds `rowid` (removed or not).
    func contains(_ rowid: UInt32) -> Bool { position(of: rowid) != nil }

    /// Where it holds `rowid` (removed or not), if it does.
    func position(of rowid: UInt32) -> Int? {
        var low = 0, high = rowids.count
        while low < high {
            let middle = (low + high) / 2
            if rowids[middle] < rowid { low = middle + 1 } else { high = middle }
        }
        return low < rowids.count && rowids[low] == rowid ? low : nil
    }

    /// No document here has a part above this at average length `average`.
    func bound(average: Double) -> Double {
        best * (average > smallestAverage ? average / smallestAverage : 1) * (1 + 1e-9)
    }

    /// Whether removed documents hold so much of it that it is worth
    /// rebuilding (each rebuild then costs no more than the removals since
    /// the last did, and the postings are never more than twice the live).
    var isWorthCompacting: Bool { rowids.count > 2 * documents + Self.blockSize }

    /// The same postings without the documents `lengths` no longer has,
    /// their bounds taken anew at `average`.
    func compacted(lengths: UnsafeBufferPointer<Int32>, average: Double) -> TermPostings {
        var kept = TermPostings()
        for (rowid, frequency) in zip(rowids, frequencies) where Int(rowid) < lengths.count && lengths[Int(rowid)] >= 0 {
            kept.append(rowid: rowid, frequency: frequency, length: lengths[Int(rowid)], average: average)
        }
        return kept
    }

    /// The last rowid of `block`.
    func lastRowid(of block: Int) -> UInt32 {
        rowids[min((block + 1) * Self.blockSize, rowids.count) - 1]
    }

    /// No document of `block` has a part above this at average length `average`.
    @inline(__always)
    func bound(of block: Int, average: Double) -> Double {
        // The best times the averages' ratio when it grew, as
        // `blockScales` has it; a little over, so that rounding never puts
        // a score above its bound.
        max(blockBests[block], blockScales[block] * average) * (1 + 1e-9)
    }
}
