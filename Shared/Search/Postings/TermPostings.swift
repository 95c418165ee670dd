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

    /// Its documents' rowids, ascending, and each one's weighted count:
    /// in memory, or read in place from the saved postings (`PostingColumn`).
    private(set) var rowids = PostingColumn()
    private(set) var frequencies = PostingColumn()
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
    /// The last block's best and average, and the last rowid, as the
    /// columns and arrays hold them: an append compares with these instead
    /// of reading the ends of five arrays, each a cache miss at a million
    /// posts (reading the last rowid was an eighth of search-service's
    /// time building its index from the feed, in `perf`).
    private var lastBest = 0.0
    private var lastAverage = 0.0
    private var lastRowid: UInt32?

    var blockCount: Int { blockBests.count }

    init() {}

    /// Its bounds and how many postings it holds, as `init(from:columns:)`
    /// reads them back (`StoredPostings`); its columns are written after
    /// every term's of these (`storeColumns`).
    func store(into writer: inout StoredWriter) {
        writer.varint(rowids.count)
        for values in [blockBests, blockAverages, blockScales] { writer.doubles(values) }
        writer.varint(documents)
        writer.double(best)
        writer.double(smallestAverage)
    }

    /// Its columns, as they are read in place: rowids, then counts.
    func storeColumns(into writer: inout StoredWriter) {
        rowids.forEachRun { writer.column($0) }
        frequencies.forEachRun { writer.column($0) }
    }

    /// Its columns are `columns`' next ones, read in place; its rowids must
    /// ascend, or it is refused (a search would take them as they are).
    init(from reader: inout StoredReader, columns: inout StoredColumns) throws(StoredPostingsError) {
        let count = try reader.count(atMost: columns.left)
        (blockBests, blockAverages, blockScales) = (try reader.doubles(), try reader.doubles(), try reader.doubles())
        documents = try reader.count(atMost: count)
        (best, smallestAverage) = (try reader.double(), try reader.double())
        let blocks = (count + Self.blockSize - 1) / Self.blockSize
        guard [blockBests.count, blockAverages.count, blockScales.count].allSatisfy({ $0 == blocks })
        else { throw .damaged("a term's postings and blocks disagree at byte \(reader.offset)") }
        (rowids, frequencies) = (try columns.next(count), try columns.next(count))
        var (ascending, previous) = (true, Int64(-1))
        rowids.forEachRun { run in
            for rowid in run {
                ascending = ascending && Int64(rowid) > previous
                previous = Int64(rowid)
            }
        }
        guard ascending else { throw .damaged("a term's rowids do not ascend at byte \(reader.offset)") }
        (lastBest, lastAverage, lastRowid) = (blockBests.last ?? 0, blockAverages.last ?? 0, rowids.last)
    }

    /// Adds a document past every other (rowids only grow).
    mutating func append(rowid: UInt32, frequency: UInt32, length: Int32, average: Double) {
        precondition(lastRowid.map { $0 < rowid } ?? true, "postings are appended in rowid order")
        if rowids.count % Self.blockSize == 0 { beginBlock(average: average) }
        rowids.append(rowid)
        frequencies.append(frequency)
        lastRowid = rowid
        documents += 1
        let part = BM25.part(frequency: Double(frequency), length: Double(length), averageLength: lastAverage)
        if part > lastBest {
            lastBest = part
            setLastBlockBest(part)
        }
        if part > best { best = part }
    }

    /// Adds the postings of `run` (in rowid order, past every other; of
    /// `documents`), as one at a time would: each column grown and claimed
    /// once, the last block's best kept here and written when the block or
    /// the run ends.
    mutating func append(_ run: UnsafeBufferPointer<HeldPostings.Posting>, of documents: UnsafeBufferPointer<HeldPostings.Document>) {
        var previous = lastRowid
        rowids.append(count: run.count) { rowids in
            for (place, posting) in run.enumerated() {
                precondition(previous.map { $0 < posting.rowid } ?? true, "postings are appended in rowid order")
                rowids[place] = posting.rowid
                previous = posting.rowid
            }
        }
        frequencies.append(count: run.count) { frequencies in
            for (place, posting) in run.enumerated() { frequencies[place] = posting.frequency }
        }
        lastRowid = previous
        self.documents += run.count
        var position = rowids.count - run.count
        var blockBest = (value: lastBest, changed: false)
        for posting in run {
            let document = documents[Int(posting.document)]
            if position % Self.blockSize == 0 {
                if blockBest.changed { setLastBlockBest(blockBest.value) }
                beginBlock(average: document.average)
                blockBest = (0, false)
            }
            let part = BM25.part(frequency: Double(posting.frequency), length: Double(document.length), averageLength: lastAverage)
            if part > blockBest.value { blockBest = (part, true) }
            if part > best { best = part }
            position += 1
        }
        if blockBest.changed { setLastBlockBest(blockBest.value) }
        lastBest = blockBest.value
    }

    /// A new last block, its bounds taken at `average`, no best yet.
    private mutating func beginBlock(average: Double) {
        blockBests.append(0)
        blockAverages.append(average)
        blockScales.append(0)
        (lastBest, lastAverage) = (0, average)
        smallestAverage = min(smallestAverage, average)
    }

    /// The last block's best is `part` (at its average, `lastAverage`).
    private mutating func setLastBlockBest(_ part: Double) {
        blockBests[blockBests.count - 1] = part
        blockScales[blockScales.count - 1] = part / lastAverage
    }

    /// The same, each column holding no more than it needs: a column grown
    /// by appending keeps up to twice its size (a third of the whole index).
    mutating func trim() {
        rowids.trim()
        frequencies.trim()
        func trimmed<T>(_ array: ContiguousArray<T>) -> ContiguousArray<T> {
            var copy = ContiguousArray<T>()
            copy.reserveCapacity(array.count)
            copy.append(contentsOf: array)
            return copy
        }
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
        (lastBest, lastAverage) = (blockBests.last ?? 0, average)
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
