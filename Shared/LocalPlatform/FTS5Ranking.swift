import Foundation
import GRDB
import GRDBSQLite
import HeapModule

/// bm25 as FTS5's own `bm25()` computes it (the same formula, in the same
/// floating-point steps, so the same scores), with two differences that make
/// a common word's query several times cheaper (docs/BENCHMARKS.md):
///
/// - a document's length comes from `DocumentLengths` in memory; FTS5's
///   reads it from its `_docsize` table, one SQL statement per match;
/// - it keeps the best `keep` matches seen so far and answers NULL for any
///   other, so a query can make snippets only for rows that may still be on
///   the page. A row on the final page was among the best `keep` when it was
///   seen, so it always gets one; in all, about keep × ln(matches / keep) do.
///
/// SQL: `posts_rank(document_fts, ?)`, the second argument a `RankRequest`
/// bound with `RankRequest.bind`. It counts every match, so the total is exact.
enum FTS5Ranking {
    static let functionName = "posts_rank"

    /// Makes `posts_rank` known to FTS5 on this connection.
    static func register(_ db: Database) throws {
        let api = UnsafeMutablePointer(mutating: FTS5.api(db))
        let code = api.pointee.xCreateFunction(api, functionName, nil, rankFunction, nil)
        guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot add \(functionName) to FTS5") }
    }
}

/// One query's ranking: what it keeps, what it has seen. Made and read by
/// the code that runs the statement, on the connection's thread, and used
/// by `posts_rank` only while that statement steps.
final class RankRequest {
    /// bm25's constants, as FTS5's.
    static let k1 = 1.2
    static let b = 0.75
    fileprivate static let pointerType: StaticString = "posts_rank_request"

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
    @exclusivity(unchecked) private var averageLength = 0.0
    /// Each phrase's inverse document frequency, and its weighted count in
    /// the current row (allocated once per query).
    @exclusivity(unchecked) private var inverseFrequencies = UnsafeMutableBufferPointer<Double>(start: nil, count: 0)
    @exclusivity(unchecked) private var frequencies = UnsafeMutableBufferPointer<Double>(start: nil, count: 0)
    @exclusivity(unchecked) private var best = Heap<Ranked>()
    @exclusivity(unchecked) private var lastRowid: Int64?
    @exclusivity(unchecked) private var lastScore: Double?

    /// `lengths` must stay valid until the statement is done.
    init(keep: Int, weights: [Double], lengths: UnsafeBufferPointer<Int32>) {
        (self.keep, self.lengths) = (keep, lengths)
        self.weights = .allocate(capacity: weights.count)
        _ = self.weights.initialize(from: weights)
    }

    deinit {
        weights.deallocate()
        inverseFrequencies.deallocate()
        frequencies.deallocate()
    }

    /// Binds this request to parameter `index` of `statement`; the caller
    /// unbinds it (binding NULL, or clearing the bindings) before the request
    /// goes away, so the statement never holds a dangling pointer.
    func bind(to statement: SQLiteStatement, at index: Int32) -> Int32 {
        Self.pointerType.withCString { type in
            sqlite3_bind_pointer(statement, index, Unmanaged.passUnretained(self).toOpaque(), type, nil)
        }
    }

    /// This row's score (higher is better) when it is among the best `keep`
    /// seen so far, else nil. SQLite may ask more than once for one row (a
    /// flattened subquery repeats the call); the row counts once.
    fileprivate func rank(_ pointer: UnsafePointer<Fts5ExtensionApi>, _ fts: OpaquePointer) throws(FTS5Failure) -> Double? {
        if api == nil { api = pointer.pointee }
        let rowid = api.unsafelyUnwrapped.xRowid(fts)
        if rowid == lastRowid { return lastScore }
        lastRowid = rowid
        matches += 1
        if frequencies.baseAddress == nil { try prepare(api.unsafelyUnwrapped, fts) }
        let score = try score(api.unsafelyUnwrapped, fts, rowid)
        let ranked = Ranked(score: score, rowid: rowid)
        if best.count < keep {
            best.insert(ranked)
        } else if let worst = best.min, worst < ranked {
            best.replaceMin(with: ranked)
        } else {
            lastScore = nil
            return nil
        }
        lastScore = score
        return score
    }

    /// Once per query: each phrase's inverse document frequency, and the
    /// average document length, as FTS5's bm25 takes them.
    private func prepare(_ api: Fts5ExtensionApi, _ fts: OpaquePointer) throws(FTS5Failure) {
        var rows: Int64 = 0
        var tokens: Int64 = 0
        try FTS5Failure.check(api.xRowCount(fts, &rows))
        try FTS5Failure.check(api.xColumnTotalSize(fts, -1, &tokens))
        averageLength = Double(tokens) / Double(rows)
        let phrases = Int(api.xPhraseCount(fts))
        var inverseFrequencies: [Double] = []
        for phrase in 0..<phrases {
            var hits: Int64 = 0
            try FTS5Failure.check(api.xQueryPhrase(fts, Int32(phrase), &hits) { _, _, count in
                count?.assumingMemoryBound(to: Int64.self).pointee += 1
                return SQLITE_OK
            })
            let idf = log((Double(rows - hits) + 0.5) / (Double(hits) + 0.5))
            inverseFrequencies.append(idf <= 0 ? 1e-6 : idf)
        }
        self.inverseFrequencies = .allocate(capacity: phrases)
        _ = self.inverseFrequencies.initialize(from: inverseFrequencies)
        frequencies = .allocate(capacity: max(phrases, 1))
        frequencies.initialize(repeating: 0)
    }

    private func score(_ api: Fts5ExtensionApi, _ fts: OpaquePointer, _ rowid: Int64) throws(FTS5Failure) -> Double {
        let frequencies = self.frequencies, weights = self.weights
        frequencies.update(repeating: 0)
        var instances: Int32 = 0
        try FTS5Failure.check(api.xInstCount(fts, &instances))
        for instance in 0..<instances {
            var phrase: Int32 = 0, column: Int32 = 0, offset: Int32 = 0
            try FTS5Failure.check(api.xInst(fts, instance, &phrase, &column, &offset))
            frequencies[Int(phrase)] += Int(column) < weights.count ? weights[Int(column)] : 1.0
        }
        let length: Double
        if rowid >= 0, rowid < lengths.count, lengths[Int(rowid)] >= 0 {
            length = Double(lengths[Int(rowid)])
        } else {
            var tokens: Int32 = 0
            try FTS5Failure.check(api.xColumnSize(fts, -1, &tokens))
            length = Double(tokens)
        }
        let k1 = Self.k1, b = Self.b
        var score = 0.0
        for (phrase, frequency) in zip(inverseFrequencies, frequencies) {
            // idf × (tf-part), in this order: the same steps as FTS5's, so the same bits.
            score += phrase * ((frequency * (k1 + 1.0)) / (frequency + k1 * (1 - b + b * length / averageLength)))
        }
        return score
    }

    fileprivate static func from(_ value: OpaquePointer?) -> RankRequest? {
        pointerType.withCString { type in
            sqlite3_value_pointer(value, type).map { Unmanaged<RankRequest>.fromOpaque($0).takeUnretainedValue() }
        }
    }
}

/// A match by its score; among equal scores the earlier row is better, as
/// in FTS5's own order.
private struct Ranked: Comparable {
    var score: Double
    var rowid: Int64

    static func < (lhs: Ranked, rhs: Ranked) -> Bool {
        lhs.score != rhs.score ? lhs.score < rhs.score : lhs.rowid > rhs.rowid
    }
}

/// An FTS5 call that failed: the statement fails with its code.
struct FTS5Failure: Error {
    var code: Int32

    static func check(_ code: Int32) throws(FTS5Failure) {
        guard code == SQLITE_OK else { throw FTS5Failure(code: code) }
    }
}

private let rankFunction: fts5_extension_function = { api, fts, context, count, values in
    guard let api, let fts, count == 1, let request = RankRequest.from(values?[0]) else {
        sqlite3_result_error(context, "\(FTS5Ranking.functionName)(document_fts, request) was called without its request", -1)
        return
    }
    do throws(FTS5Failure) {
        if let score = try request.rank(api, fts) { sqlite3_result_double(context, score) } else { sqlite3_result_null(context) }
    } catch {
        sqlite3_result_error_code(context, error.code)
    }
}

extension StaticString {
    fileprivate func withCString<T>(_ body: (UnsafePointer<CChar>) -> T) -> T {
        utf8Start.withMemoryRebound(to: CChar.self, capacity: utf8CodeUnitCount + 1, body)
    }
}
