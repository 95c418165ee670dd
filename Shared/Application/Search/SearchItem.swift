import Domain
import Foundation

/// One hit as the screen shows it.
public struct SearchItem: Sendable, Equatable, Identifiable {
    public var id: UUID
    public var title: String
    public var snippet: String
    /// Matched words in `snippet`, in Unicode scalars.
    public var highlights: [Range<Int>]

    init(_ hit: SearchHit) {
        (id, title, snippet, highlights) = (hit.uid, hit.title, hit.snippet, hit.highlights)
    }
}
