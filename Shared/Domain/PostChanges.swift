#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One write, stamped with its place in the global order of writes.
public struct PostChange: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case upsert(Post)
        case delete
    }

    public var sequence: Int64
    public var uid: UUID
    public var kind: Kind

    public init(sequence: Int64, uid: UUID, kind: Kind) {
        self.sequence = sequence
        self.uid = uid
        self.kind = kind
    }
}

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
