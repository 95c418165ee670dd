import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

public struct HealthResult: Codable, Sendable, Equatable {
    public var status: String
    public var service: String
    public var pid: Int32
    public init(status: String, service: String, pid: Int32) { (self.status, self.service, self.pid) = (status, service, pid) }
}
