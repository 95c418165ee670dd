import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

public struct ChangesParams: Codable, Sendable {
    public var after: Int64
    public var limit: Int?
    public init(after: Int64, limit: Int? = nil) { (self.after, self.limit) = (after, limit) }
}
