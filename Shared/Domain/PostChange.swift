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
