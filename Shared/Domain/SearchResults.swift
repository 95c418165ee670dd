#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A page of hits, how many there are in all, and which change sequence the
/// index had applied when it answered.
public struct SearchResults: Sendable, Equatable, Codable {
    public var hits: [SearchHit]
    /// How many posts match; at least this many when `totalIsExact` is false
    /// (an index that stops counting at some bound says so; one that
    /// ranks every match always has an exact count).
    public var total: Int
    public var totalIsExact: Bool
    public var sequence: Int64

    public init(hits: [SearchHit], total: Int, totalIsExact: Bool = true, sequence: Int64) {
        (self.hits, self.total, self.totalIsExact, self.sequence) = (hits, total, totalIsExact, sequence)
    }
}
