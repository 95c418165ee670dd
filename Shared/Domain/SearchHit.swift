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
