import Domain

/// The result of `mmi.services`.
public struct GatewayServices: Sendable, Codable, Equatable {
    public var services: [SystemStatus.Service]
    public init(services: [SystemStatus.Service]) { self.services = services }
}
