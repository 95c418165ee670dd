#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How far a search index has followed a change feed.
public struct IndexPosition: Sendable, Equatable {
    public var applied: Int64
    /// The database whose sequence `applied` counts in; nil before the first change.
    public var database: String?

    public init(applied: Int64, database: String?) { (self.applied, self.database) = (applied, database) }
}
