import Foundation
import GRDB
import GRDBSQLite
import HeapModule

/// A match by its score; among equal scores the earlier row is better, as
/// in FTS5's own order.
struct Ranked: Comparable {
    var score: Double
    var rowid: Int64

    static func < (lhs: Ranked, rhs: Ranked) -> Bool {
        lhs.score != rhs.score ? lhs.score < rhs.score : lhs.rowid > rhs.rowid
    }
}
