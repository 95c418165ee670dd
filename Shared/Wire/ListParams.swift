import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

public struct ListParams: Codable, Sendable {
    public var limit: Int?
    public var cursor: String?
    public init(limit: Int? = nil, cursor: String? = nil) { (self.limit, self.cursor) = (limit, cursor) }
}
