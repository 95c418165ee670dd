/// A term's postings in tiers by how much a document's match weighs
/// (bm25's part, before the term's inverse frequency, when it was added):
/// the best matches of a common word are a small tier of their own, so a
/// query reads that tier, and skips the others once its page is better
/// than they can be (`ImpactSearch`). bm25's part is below k1 + 1 = 2.2;
/// a title match of an average post is about 1.96, a content match 1.0,
/// so the floors are fine near the top, where a common word's page is.
struct TermTiers {
    static let floors: [Double] = [2.12, 2.08, 2.04, 2.0, 1.95, 1.9, 1.7, 1.4, 1.0, 0]

    private(set) var tiers: [TermPostings] = []

    /// Documents that hold the term now (every tier's, kept as they change:
    /// a prefix's completions are ranked by it on every query).
    private(set) var documents = 0

    /// Postings held, removed documents' included.
    var count: Int { tiers.reduce(0) { $0 + $1.rowids.count } }

    init() {}

    /// Its tiers as `init(from:columns:)` reads them back (`StoredPostings`).
    func store(into writer: inout StoredWriter) {
        writer.varint(tiers.count)
        for tier in tiers.indices { tiers[tier].store(into: &writer) }
    }

    func storeColumns(into writer: inout StoredWriter) {
        for tier in tiers.indices { tiers[tier].storeColumns(into: &writer) }
    }

    /// Whether every rowid it holds is below `rowid` (rowids ascend in a
    /// tier: its last is its largest).
    func isBelow(rowid: Int) -> Bool {
        tiers.indices.allSatisfy { tier in tiers[tier].rowids.last.map { Int($0) < rowid } ?? true }
    }

    init(from reader: inout StoredReader, columns: inout StoredColumns) throws(StoredPostingsError) {
        let count = try reader.count(atMost: Self.floors.count)
        // Room for them at once: grown one by one, a term's tiers were copied
        // four times over (a tenth of a new replica's page faults, reading
        // back each save it made while building from the feed).
        tiers.reserveCapacity(count)
        for _ in 0..<count { tiers.append(try TermPostings(from: &reader, columns: &columns)) }
        documents = tiers.reduce(0) { $0 + $1.documents }
    }

    /// `rowid`'s weighted count, if a tier holds it (removed or not).
    func frequency(of rowid: UInt32) -> UInt32? {
        // By index: a tier read in place, not copied (seven references retained and released).
        for tier in tiers.indices {
            if let posting = tiers[tier].position(of: rowid) { return tiers[tier].frequencies[posting] }
        }
        return nil
    }

    mutating func append(rowid: UInt32, frequency: UInt32, length: Int32, average: Double) {
        let tier = Self.tier(frequency: frequency, length: length, average: average)
        while tiers.count <= tier { tiers.append(TermPostings()) }
        tiers[tier].append(rowid: rowid, frequency: frequency, length: length, average: average)
        documents += 1
    }

    /// Adds a batch's postings of the term (`run`, in rowid order, past
    /// every other; of `documents`), as one at a time would, but each
    /// tier's appended together: its columns grown and claimed once, its
    /// block bounds kept in registers (a posting appended alone was a few
    /// branches and writes to the ends of seven arrays, a fifth of a new
    /// replica's time building from the feed, in `perf`).
    mutating func append(_ run: UnsafeBufferPointer<HeldPostings.Posting>, of documents: UnsafeBufferPointer<HeldPostings.Document>) {
        let tierCount = Self.floors.count
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: run.count) { tierOf in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: tierCount + 1) { ends in
                // Each tier's count, then where its postings end once put in tier order.
                ends.initialize(repeating: 0)
                for (place, posting) in run.enumerated() {
                    let document = documents[Int(posting.document)]
                    let tier = Self.tier(frequency: posting.frequency, length: document.length, average: document.average)
                    tierOf[place] = UInt8(tier)
                    ends[tier + 1] += 1
                }
                let top = (0..<tierCount).last { ends[$0 + 1] > 0 } ?? 0
                while tiers.count <= top { tiers.append(TermPostings()) }
                if let only = (0..<tierCount).first(where: { ends[$0 + 1] == run.count }) {
                    tiers[only].append(run, of: documents)
                    return
                }
                for tier in 0..<tierCount { ends[tier + 1] += ends[tier] }
                // In tier order, each tier's in rowid order: one pass, then each tier's postings together.
                withUnsafeTemporaryAllocation(of: HeldPostings.Posting.self, capacity: run.count) { byTier in
                    for (place, posting) in run.enumerated() {
                        let tier = Int(tierOf[place])
                        (byTier.baseAddress.unsafelyUnwrapped + ends[tier]).initialize(to: posting)
                        ends[tier] += 1
                    }
                    var start = 0
                    for tier in 0..<tierCount where ends[tier] > start {
                        tiers[tier].append(UnsafeBufferPointer(rebasing: byTier[start..<ends[tier]]), of: documents)
                        start = ends[tier]
                    }
                }
            }
        }
        self.documents += run.count
    }

    /// The tier of a posting of weighted count `frequency` in a document of
    /// `length` when the average was `average`.
    @inline(__always)
    private static func tier(frequency: UInt32, length: Int32, average: Double) -> Int {
        let part = BM25.part(frequency: Double(frequency), length: Double(length), averageLength: average)
        return floors.firstIndex { part >= $0 } ?? floors.count - 1
    }

    mutating func rebase(lengths: UnsafeBufferPointer<Int32>, average: Double) {
        for tier in tiers.indices { tiers[tier].rebase(lengths: lengths, average: average) }
    }

    mutating func trim() {
        for tier in tiers.indices { tiers[tier].trim() }
    }

    /// The documents `gone` marks (by rowid) are removed (`lengths` already
    /// says so): no longer counted, and a tier rebuilt as `remove` would.
    mutating func remove(marked gone: UnsafeBufferPointer<Bool>, lengths: UnsafeBufferPointer<Int32>, average: Double) {
        for tier in tiers.indices {
            let count = tiers[tier].rowids.reduce(0) { $0 + (Int($1) < gone.count && gone[Int($1)] ? 1 : 0) }
            guard count > 0 else { continue }
            tiers[tier].documents -= count
            documents -= count
            if tiers[tier].isWorthCompacting { tiers[tier] = tiers[tier].compacted(lengths: lengths, average: average) }
        }
    }

    /// `rowid`'s document is removed (`lengths` already says so): no longer
    /// counted, and its tier rebuilt once removed documents are half of it.
    mutating func remove(_ rowid: UInt32, lengths: UnsafeBufferPointer<Int32>, average: Double) {
        guard let tier = tiers.firstIndex(where: { $0.contains(rowid) }) else { return }
        tiers[tier].documents -= 1
        documents -= 1
        if tiers[tier].isWorthCompacting { tiers[tier] = tiers[tier].compacted(lengths: lengths, average: average) }
    }
}
