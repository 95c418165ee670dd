import Foundation
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

extension Heap where Element == Ranked {
    /// Keeps `ranked` if it is among the best `keep` offered so far:
    /// answers whether it was kept.
    @inline(__always) @discardableResult
    mutating func offer(_ ranked: Ranked, keeping keep: Int) -> Bool {
        if count < keep {
            insert(ranked)
            return true
        }
        guard let least = self.min, least < ranked else { return false }
        replaceMin(with: ranked)
        return true
    }
}
