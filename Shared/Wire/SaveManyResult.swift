import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

public struct SaveManyResult: Codable, Sendable, Equatable {
    public var saved: Int
    public init(saved: Int) { self.saved = saved }
}
