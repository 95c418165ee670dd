#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One post found by a search.
public struct SearchHit: Sendable, Equatable, Codable {
    public var uid: UUID
    public var title: String
    /// A short excerpt around the matches, on one line.
    public var snippet: String
    /// Where the matched words are in `snippet`, in Unicode scalars (code points).
    public var highlights: [Range<Int>]
    /// Relevance: higher is better.
    public var score: Double

    public init(uid: UUID, title: String, snippet: String, highlights: [Range<Int>], score: Double) {
        (self.uid, self.title, self.snippet, self.highlights, self.score) = (uid, title, snippet, highlights, score)
    }
}

/// A page of hits, how many there are in all, and which change sequence the
/// index had applied when it answered.
public struct SearchResults: Sendable, Equatable, Codable {
    public var hits: [SearchHit]
    /// How many posts match; at least this many when `totalIsExact` is false
    /// (an index that stops counting at some bound says so; the FTS5 index
    /// ranks every match, so its count is always exact).
    public var total: Int
    public var totalIsExact: Bool
    public var sequence: Int64

    public init(hits: [SearchHit], total: Int, totalIsExact: Bool = true, sequence: Int64) {
        (self.hits, self.total, self.totalIsExact, self.sequence) = (hits, total, totalIsExact, sequence)
    }
}

public enum SearchRules {
    public static let maxQueryLength = 500
    public static let maxOffset = 10_000
    /// Whole words an unfinished last word may stand for (they start with
    /// it); a prefix of more words than this is matched by stems alone.
    public static let maxCompletions = 8
    /// A catch-up that applied at least this many changes (a new worker
    /// building its index, an import) ends by compacting the index: queries
    /// on it then read one merged structure (docs/BENCHMARKS.md).
    public static let compactAfter = 10_000

    /// The limit and offset a search may ask for, or the one that is wrong.
    public static func validated(query: String, limit: Int?, offset: Int?) throws(PostsError) -> (limit: Int, offset: Int) {
        guard query.count <= maxQueryLength else {
            throw .invalid("q", .tooLong(max: maxQueryLength, actual: query.count, unit: .characters))
        }
        if query.utf8.contains(0) { throw .invalid("q", .forbiddenCharacter(0)) }
        let limit = try PostRules.validatedLimit(limit)
        let offset = offset ?? 0
        guard (0...maxOffset).contains(offset) else {
            throw .invalid("offset", .outOfRange(min: 0, max: Int64(maxOffset), actual: "\(offset)"))
        }
        return (limit, offset)
    }
}
