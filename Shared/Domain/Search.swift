import Foundation

/// One post found by a search.
public struct SearchHit: Sendable, Equatable {
    public var uid: UUID
    public var title: String
    /// A short excerpt around the matches.
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
public struct SearchResults: Sendable, Equatable {
    public var hits: [SearchHit]
    public var total: Int
    public var sequence: Int64

    public init(hits: [SearchHit], total: Int, sequence: Int64) {
        (self.hits, self.total, self.sequence) = (hits, total, sequence)
    }
}

/// Full-text search over posts.
public protocol SearchUseCase: Sendable {
    /// Plain words must all match, the last one as a prefix (search as you
    /// type); "quoted phrases" match as phrases.
    func search(_ query: String, limit: Int, offset: Int) async throws(PostsError) -> SearchResults
}

public enum SearchRules {
    public static let maxQueryLength = 500
    public static let maxOffset = 10_000
    /// Whole words an unfinished last word may stand for (they start with
    /// it); a prefix of more words than this is matched by stems alone.
    public static let maxCompletions = 8
}
