import Foundation
import GRDB
import GRDBSQLite

/// bm25 as FTS5's own `bm25()` computes it (the same formula, in the same
/// floating-point steps, so the same scores), kept by `RankRequest`, which
/// makes a common word's query several times cheaper (docs/BENCHMARKS.md).
///
/// SQL: `posts_rank(document_fts, ?)`, the second argument a `RankRequest`
/// bound with `RankRequest.bind`. It answers NULL: what it found is read
/// from the request once the statement is done.
enum FTS5Ranking {
    static let functionName = "posts_rank"

    /// Makes `posts_rank` known to FTS5 on this connection.
    static func register(_ db: Database) throws {
        let api = UnsafeMutablePointer(mutating: FTS5.api(db))
        let code = api.pointee.xCreateFunction(api, functionName, nil, rankFunction, nil)
        guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot add \(functionName) to FTS5") }
    }
}

private let rankFunction: fts5_extension_function = { api, fts, context, count, values in
    guard let api, let fts, count == 1, let request = RankRequest.from(values?[0]) else {
        sqlite3_result_error(context, "\(FTS5Ranking.functionName)(document_fts, request) was called without its request", -1)
        return
    }
    do throws(FTS5Failure) {
        try request.rank(api, fts)
        sqlite3_result_null(context)
    } catch {
        sqlite3_result_error_code(context, error.code)
    }
}

extension StaticString {
    func withCString<T>(_ body: (UnsafePointer<CChar>) -> T) -> T {
        utf8Start.withMemoryRebound(to: CChar.self, capacity: utf8CodeUnitCount + 1, body)
    }
}
