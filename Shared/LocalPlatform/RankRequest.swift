import Foundation
import GRDB
import GRDBSQLite
import HeapModule

/// One query's ranking, read by `posts_rank` once per match, what FTS5's
/// `bm25()` would make of it, with three differences that make a common
/// word's query several times cheaper (docs/BENCHMARKS.md):
///
/// - a document's length comes from `DocumentLengths` in memory; FTS5's
///   reads it from its `_docsize` table, one SQL statement per match;
/// - it keeps only the best `keep` matches seen so far, with where their
///   phrases are, so snippets are made afterwards for the page's hits alone
///   (`Snippet`), not for every match or every match that was once among
///   the best;
/// - a query of one phrase has one inverse document frequency for every
///   match, which FTS5 counts in a pass of its own over the matches. Here it
///   is the number of matches, known once they are all seen: until then the
///   scores leave it out, which orders them the same way.
///
/// Made and read by the code that runs the statement, on the connection's
/// thread, and used by `posts_rank` only while that statement steps.
final class RankRequest {
    static let pointerType: StaticString = "posts_rank_request"

    let keep: Int
    /// Each column's weight (a column past the last weighs 1).
    private let weights: UnsafeMutableBufferPointer<Double>
    /// Token counts by rowid, -1 where unknown: `DocumentLengths`' storage,
    /// valid while the statement runs (see `DocumentLengths.withTokens`).
    private let lengths: UnsafeBufferPointer<Int32>
    // Used by `posts_rank` once per matching row, on one thread, during
    // one statement: no access can overlap, so none is checked at run time
    // (the checks cost more than the arithmetic).
    /// Matching rows seen: once the statement is done, the exact total.
    @exclusivity(unchecked) private(set) var matches = 0
    /// FTS5's functions, read once (a C struct of function pointers).
    @exclusivity(unchecked) private var api: Fts5ExtensionApi?
    @exclusivity(unchecked) private var rows: Int64 = 0
    @exclusivity(unchecked) private var averageLength = 0.0
    /// One phrase: its inverse frequency is applied at the end (see above).
    @exclusivity(unchecked) private var frequencyFromMatches = false
    /// Set by `prepare`, at the first match.
    @exclusivity(unchecked) private var prepared = false
    /// Each phrase's inverse document frequency (allocated once per query).
    @exclusivity(unchecked) private var inverseFrequencies = UnsafeMutableBufferPointer<Double>(start: nil, count: 0)
    /// Each phrase's length in tokens.
    @exclusivity(unchecked) private var phraseSizes: [Int32] = []
    @exclusivity(unchecked) private var best = Heap<Ranked>()
    /// Where the phrases of each match in `best` are.
    @exclusivity(unchecked) private var instances: [Int64: [PhraseInstance]] = [:]
    @exclusivity(unchecked) private var lastRowid: Int64?

    /// `lengths` must stay valid until the statement is done.
    init(keep: Int, weights: [Double], lengths: UnsafeBufferPointer<Int32>) {
        (self.keep, self.lengths) = (keep, lengths)
        self.weights = .allocate(capacity: weights.count)
        _ = self.weights.initialize(from: weights)
    }

    deinit {
        weights.deallocate()
        inverseFrequencies.deallocate()
    }

    /// Binds this request to parameter `index` of `statement`; the caller
    /// unbinds it (binding NULL, or clearing the bindings) before the request
    /// goes away, so the statement never holds a dangling pointer.
    func bind(to statement: SQLiteStatement, at index: Int32) -> Int32 {
        Self.pointerType.withCString { type in
            sqlite3_bind_pointer(statement, index, Unmanaged.passUnretained(self).toOpaque(), type, nil)
        }
    }

    /// The best `keep` matches, best first (equal scores in rowid order, as
    /// FTS5 orders them), with their final scores, once the statement is done.
    func ranked() -> [RankedMatch] {
        // 1 × x is x: only a query of one phrase changes here.
        let scale = frequencyFromMatches ? BM25.inverseFrequency(rows: rows, hits: Int64(matches)) : 1
        return best.unordered
            .map { Ranked(score: scale * $0.score, rowid: $0.rowid) }
            .sorted(by: >)
            .map { RankedMatch(rowid: $0.rowid, score: $0.score, instances: instances[$0.rowid] ?? []) }
    }

    /// Scores this row and keeps it if it is among the best `keep` so far.
    /// Should SQLite ask twice for one row, the row counts once.
    func rank(_ pointer: UnsafePointer<Fts5ExtensionApi>, _ fts: OpaquePointer) throws(FTS5Failure) {
        if api == nil { api = pointer.pointee }
        let api = self.api.unsafelyUnwrapped
        let rowid = api.xRowid(fts)
        if rowid == lastRowid { return }
        lastRowid = rowid
        matches += 1
        if !prepared { try prepare(api, fts) }
        let ranked = Ranked(score: try score(api, fts, rowid), rowid: rowid)
        let offered = best.offer(ranked, keeping: keep)
        guard offered.kept else { return }
        if let pushedOut = offered.pushedOut { instances[pushedOut.rowid] = nil }
        instances[rowid] = try phraseInstances(api, fts)
    }

    /// Once per query: the average document length, each phrase's length,
    /// and each phrase's inverse document frequency (for more than one phrase).
    private func prepare(_ api: Fts5ExtensionApi, _ fts: OpaquePointer) throws(FTS5Failure) {
        var tokens: Int64 = 0
        try FTS5Failure.check(api.xRowCount(fts, &rows))
        try FTS5Failure.check(api.xColumnTotalSize(fts, -1, &tokens))
        averageLength = Double(tokens) / Double(rows)
        let phrases = Int(api.xPhraseCount(fts))
        phraseSizes = (0..<phrases).map { api.xPhraseSize(fts, Int32($0)) }
        frequencyFromMatches = phrases == 1
        // 1 × x is x: one phrase is scored without its idf, applied in `ranked`.
        var inverseFrequencies: [Double] = frequencyFromMatches ? [1] : []
        for phrase in 0..<phrases where !frequencyFromMatches {
            var hits: Int64 = 0
            try FTS5Failure.check(
                api.xQueryPhrase(fts, Int32(phrase), &hits) { _, _, count in
                    count?.assumingMemoryBound(to: Int64.self).pointee += 1
                    return SQLITE_OK
                })
            inverseFrequencies.append(BM25.inverseFrequency(rows: rows, hits: hits))
        }
        self.inverseFrequencies = .allocate(capacity: phrases)
        _ = self.inverseFrequencies.initialize(from: inverseFrequencies)
        prepared = true
    }

    private func score(_ api: Fts5ExtensionApi, _ fts: OpaquePointer, _ rowid: Int64) throws(FTS5Failure) -> Double {
        let weights = self.weights
        let length: Double
        if rowid >= 0, rowid < lengths.count, lengths[Int(rowid)] >= 0 {
            length = Double(lengths[Int(rowid)])
        } else {
            var tokens: Int32 = 0
            try FTS5Failure.check(api.xColumnSize(fts, -1, &tokens))
            length = Double(tokens)
        }
        var score = 0.0
        for (phrase, inverseFrequency) in inverseFrequencies.enumerated() {
            // The phrase's matches in this row, in the order FTS5's bm25 adds
            // them up (column, then position), read from its own position list.
            var iterator = Fts5PhraseIter(a: nil, b: nil)
            var column: Int32 = 0, offset: Int32 = 0
            try FTS5Failure.check(api.xPhraseFirst(fts, Int32(phrase), &iterator, &column, &offset))
            var frequency = 0.0
            while column >= 0 {
                frequency += Int(column) < weights.count ? weights[Int(column)] : 1.0
                api.xPhraseNext(fts, &iterator, &column, &offset)
            }
            // idf × (tf-part), in this order: the same steps as FTS5's, so the same bits.
            score += inverseFrequency * BM25.part(frequency: frequency, length: length, averageLength: averageLength)
        }
        return score
    }

    /// Where this row's phrases matched (FTS5 keeps them for the row, so
    /// reading them again costs little).
    private func phraseInstances(_ api: Fts5ExtensionApi, _ fts: OpaquePointer) throws(FTS5Failure) -> [PhraseInstance] {
        var count: Int32 = 0
        try FTS5Failure.check(api.xInstCount(fts, &count))
        var found: [PhraseInstance] = []
        found.reserveCapacity(Int(count))
        for instance in 0..<count {
            var phrase: Int32 = 0, column: Int32 = 0, offset: Int32 = 0
            try FTS5Failure.check(api.xInst(fts, instance, &phrase, &column, &offset))
            let size = Int(phrase) < phraseSizes.count ? max(phraseSizes[Int(phrase)], 1) : 1
            found.append(PhraseInstance(phrase: Int(phrase), column: Int(column), tokens: Int(offset)..<Int(offset + size)))
        }
        return found
    }

    static func from(_ value: OpaquePointer?) -> RankRequest? {
        pointerType.withCString { type in
            sqlite3_value_pointer(value, type).map { Unmanaged<RankRequest>.fromOpaque($0).takeUnretainedValue() }
        }
    }
}
