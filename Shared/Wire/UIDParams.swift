import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

public struct UIDParams: Codable, Sendable {
    public var uid: String
    public init(uid: String) { self.uid = uid }
}
