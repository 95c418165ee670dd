/// A search index in memory that ranks a query's best matches as FTS5's
/// bm25 would, reading only the postings where they can be: each term's
/// postings are in tiers by weight (`TermTiers`) with block-max bounds
/// (`TermPostings`), and `ImpactSearch` skips every tier and block that
/// cannot reach the page. The matches' text stays in SQLite (a snippet
/// reads it); this holds what ranking reads: each document's length, each
/// term's documents with its weighted count, and each document's stems in
/// order (`DocumentStems`), where a phrase is found.
///
/// Rowids only grow: a document changed is removed and added again under
/// a new rowid. A removed document's postings stay (skipped, and no longer
/// counted) until they are half of a term's, which is then rebuilt.
public struct ImpactIndex: Sendable {
    /// A title's match counts this many of the content's (bm25's column
    /// weights, as FTS5's `bm25(…, 10.0, 1.0)` would weigh them).
    static let titleWeight: UInt32 = 10

    private(set) var vocabulary = ImpactVocabulary()
    private(set) var postings: [TermTiers] = []
    /// Each document's length in tokens (title and content), by rowid; -1: none.
    private(set) var lengths: ContiguousArray<Int32> = []
    /// Each document's stems in order, by rowid.
    private(set) var documentStems = DocumentStems()
    private(set) var rows: Int64 = 0
    /// Postings ever added (what its memory grew by, `ImpactRanker`).
    private(set) var postingsAdded = 0
    private(set) var tokens: Int64 = 0
    /// Room a batch's postings were held in (`HeldPostings`), kept for the
    /// next while batches come large (a catch-up's, a load's): each one
    /// anew took megabytes from the system (mapped of their own,
    /// `FreeMemory`) and faulted in every page, a fifth of a new replica's
    /// page faults building from the feed (`perf`). Let go of after a
    /// smaller batch, by `trim`, and by `letGoOfBatchRoom` (a catch-up's end).
    private var held = HeldPostings()
    /// Postings a batch holds from which its room is kept for the next.
    static let heldRoomKeptFrom = 65_536
    /// The average every block's best was last taken at (`rebaseIfMoved`).
    private var rebasedAverage = 0.0
    /// How far the average may move before every bound is taken anew: a
    /// bound grows with the average's ratio, so this keeps them within 10%.
    static let rebaseAfter = 0.1

    init() {}

    /// Everything it holds but the postings' columns, as
    /// `init(from:columns:)` reads it back (`StoredPostings`).
    func store(into writer: inout StoredWriter) {
        vocabulary.store(into: &writer)
        writer.varint(postings.count)
        // By index, here and below: a term read in place, not copied (each
        // copy of a tier retained and released seven references; a save
        // at a million posts made millions of them, in `perf`).
        for stem in postings.indices { postings[stem].store(into: &writer) }
        writer.varint(lengths.count)
        for length in lengths { writer.varint(Int(length + 1)) }
        for value in [Int(rows), postingsAdded, Int(tokens)] { writer.varint(value) }
        writer.double(rebasedAverage)
        writer.varint(documentStems.storedWords(leavingOut: isRemoved))
    }

    /// Whether the document at `rowid` was removed (or never was): its
    /// stems are not saved.
    private func isRemoved(_ rowid: Int) -> Bool { length(of: Int64(rowid)) == nil }

    /// The postings' columns, after everything `store` wrote: every
    /// term's in order, each tier's rowids then counts.
    func storeColumns(into writer: inout StoredWriter) {
        for stem in postings.indices { postings[stem].storeColumns(into: &writer) }
        documentStems.storeColumns(into: &writer, leavingOut: isRemoved)
    }

    /// The postings' columns are read in place from `columns`.
    init(from reader: inout StoredReader, columns: inout StoredColumns) throws(StoredPostingsError) {
        vocabulary = try ImpactVocabulary(from: &reader)
        let terms = try reader.count(atMost: vocabulary.stems.count)
        postings.reserveCapacity(min(terms, StoredReader.chunk))
        for _ in 0..<terms { postings.append(try TermTiers(from: &reader, columns: &columns)) }
        let documents = try reader.count()
        lengths.reserveCapacity(min(documents, StoredReader.chunk))
        for _ in 0..<documents { lengths.append(Int32(try reader.count(atMost: Int(Int32.max))) - 1) }
        rows = Int64(try reader.count(atMost: documents))
        postingsAdded = try reader.count(atMost: Int.max)
        tokens = Int64(try reader.count(atMost: Int.max))
        rebasedAverage = try reader.double()
        let stemValues = try reader.count(atMost: columns.left)
        let starts = try columns.next(documents + 1)
        guard let stems = DocumentStems(starts: starts, words: try columns.next(stemValues), documents: documents) else {
            throw .damaged("the documents' stems do not ascend, or do not end where they say, at byte \(reader.offset)")
        }
        documentStems = stems
        // Every posting's document has a length (rowids ascend: the last of each tier is the largest).
        guard postings.indices.allSatisfy({ postings[$0].isBelow(rowid: lengths.count) }) else {
            throw .damaged("a posting past the last document at byte \(reader.offset)")
        }
    }

    /// Its postings read in place from a saved file, and those in memory of
    /// its own.
    var postingsHeld: (mapped: Int, inMemory: Int) {
        var held = (mapped: 0, inMemory: 0)
        for stem in postings.indices {
            for tier in postings[stem].tiers.indices {
                held.mapped += postings[stem].tiers[tier].rowids.mapped
                held.inMemory += postings[stem].tiers[tier].rowids.inMemory
            }
        }
        return held
    }

    /// Its documents' stems (4-byte values) read in place from a saved
    /// file, and those in memory of its own.
    var stemsHeld: (mapped: Int, inMemory: Int) {
        (documentStems.starts.mapped + documentStems.words.mapped, documentStems.inMemory)
    }

    /// The average document length, as FTS5 takes it.
    var averageLength: Double { rows == 0 ? 1 : Double(tokens) / Double(rows) }

    func length(of rowid: Int64) -> Int32? {
        rowid >= 0 && rowid < lengths.count && lengths[Int(rowid)] >= 0 ? lengths[Int(rowid)] : nil
    }

    /// Adds a document whose columns hold these stems (by number, in order).
    mutating func add(rowid: Int64, title: [Int32], content: [Int32]) {
        add([StemmedDocument(rowid: rowid, title: title, content: content)])
    }

    /// Adds documents in rowid order, each past every one before it: as
    /// one at a time would, but each term's postings appended together
    /// (`HeldPostings`), so a term's ends are read once a batch, not once
    /// a document: at a million posts each posting appended alone was a
    /// few cache misses (the ends of a term's columns and bounds lie apart
    /// from every other's), a fifth of search-service's time building its
    /// index from the feed (`perf`); a common word's are now appended to
    /// thousands at a time.
    mutating func add(_ documents: [StemmedDocument]) {
        var held = self.held
        self.held = HeldPostings()  // alone in its room, which it then reuses
        held.clear()
        held.reserve(documents: documents.count, words: documents.reduce(0) { $0 + $1.title.count + $1.content.count })
        var most = 0
        for document in documents {
            let rowid = document.rowid
            precondition(rowid >= 0 && rowid < Int64(UInt32.max) && rowid >= Int64(lengths.count), "rowids only grow")
            let length = Int32(clamping: document.title.count + document.content.count)
            lengths.append(contentsOf: repeatElement(-1, count: Int(rowid) - lengths.count))
            lengths.append(length)
            rows += 1
            tokens += Int64(length)
            postingsAdded += held.hold(
                title: document.title, content: document.content, titleWeight: Self.titleWeight, rowid: UInt32(rowid), length: length,
                average: averageLength)
            documentStems.add(rowid: Int(rowid), title: document.title, content: document.content)
            if isRebaseDue {
                most = max(most, held.count)
                append(&held)
                rebase()
            }
        }
        most = max(most, held.count)
        append(&held)
        if most >= Self.heldRoomKeptFrom { self.held = held }
    }

    /// Lets go of the room batches were held in (`held`): no more large
    /// ones are coming.
    mutating func letGoOfBatchRoom() { held = HeldPostings() }

    var holdsBatchRoom: Bool { held.roomBytes > 0 }

    /// The postings held back, appended to their terms, a term's run at a
    /// time (`TermTiers.append(_:of:)`).
    private mutating func append(_ held: inout HeldPostings) {
        guard let last = held.largestStem else { return }
        if postings.count <= Int(last) { postings.append(contentsOf: repeatElement(TermTiers(), count: Int(last) + 1 - postings.count)) }
        held.byTerm(terms: postings.count) { stem, run, documents in
            postings[Int(stem)].append(run, of: documents)
        }
        held.clear()
    }

    /// Takes every block's best again once the average has moved by more
    /// than `rebaseAfter` since they were: the first documents of an index
    /// set an average the rest may move far from (at a tenth of it, a bound
    /// is ten times what a match can score, and nothing is skipped). Each
    /// rebase reads every posting; the average settles as documents come,
    /// so rebases become rare (one per 10% the average moves).
    private mutating func rebaseIfMoved() {
        if isRebaseDue { rebase() }
    }

    private var isRebaseDue: Bool { rows > 0 && abs(averageLength - rebasedAverage) > Self.rebaseAfter * rebasedAverage }

    private mutating func rebase() {
        let average = averageLength
        rebasedAverage = average
        let lengths = self.lengths
        lengths.withUnsafeBufferPointer { lengths in
            for stem in postings.indices { postings[stem].rebase(lengths: lengths, average: average) }
        }
    }

    /// Removes a document that held these stems.
    mutating func remove(rowid: Int64, stems: some Sequence<Int32>) {
        guard let length = length(of: rowid) else { return }
        lengths[Int(rowid)] = -1
        rows -= 1
        tokens -= Int64(length)
        let average = averageLength
        let lengths = self.lengths
        lengths.withUnsafeBufferPointer { lengths in
            for stem in Set(stems) where Int(stem) < postings.count {
                postings[Int(stem)].remove(UInt32(rowid), lengths: lengths, average: average)
            }
        }
        rebaseIfMoved()
    }

    /// Removes the document at `rowid`, with the stems it was added with.
    mutating func remove(rowid: Int64) {
        guard length(of: rowid) != nil else { return }
        let (title, content) = documentStems.stems(of: Int(rowid))
        remove(rowid: rowid, stems: title + content)
    }

    /// Removes every document but those of `live` (by rowid), in one pass
    /// over every posting: what a saved index held that the table no longer
    /// does (removed or changed since it was saved). Answers how many.
    @discardableResult
    public mutating func keepOnly(_ live: [Int64]) -> Int {
        var kept = [Bool](repeating: false, count: lengths.count)
        for rowid in live where rowid >= 0 && rowid < lengths.count { kept[Int(rowid)] = true }
        var gone = [Bool](repeating: false, count: lengths.count)
        var removed = 0
        for rowid in lengths.indices where lengths[rowid] >= 0 && !kept[rowid] {
            (gone[rowid], removed, rows, tokens) = (true, removed + 1, rows - 1, tokens - Int64(lengths[rowid]))
            lengths[rowid] = -1
        }
        guard removed > 0 else { return 0 }
        let average = averageLength
        let lengths = self.lengths
        gone.withUnsafeBufferPointer { gone in
            lengths.withUnsafeBufferPointer { lengths in
                for stem in postings.indices { postings[stem].remove(marked: gone, lengths: lengths, average: average) }
            }
        }
        rebaseIfMoved()
        return removed
    }

    mutating func add(word: String, stem: String) -> Int32 { vocabulary.add(word: word, stem: stem) }

    /// Gives back what appending left spare (`TermPostings.trim`).
    mutating func trim() {
        for stem in postings.indices { postings[stem].trim() }
        documentStems.trim()
        letGoOfBatchRoom()
    }
}
