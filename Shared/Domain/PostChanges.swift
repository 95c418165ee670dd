#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Changes after a sequence, in order, and the newest sequence there is.
public struct PostChanges: Sendable, Equatable {
    public var changes: [PostChange]
    public var head: Int64
    /// Which database the sequences count in: a database made anew (a reset)
    /// has another, so a reader knows its sequence means nothing there.
    /// Nil from a source that does not say.
    public var database: String?

    public init(changes: [PostChange], head: Int64, database: String? = nil) {
        self.changes = changes
        self.head = head
        self.database = database
    }
}
