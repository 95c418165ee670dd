import Domain

/// The result of `mmi.workers`: the processes serving each service.
public struct GatewayWorkers: Sendable, Codable, Equatable {
    public var processes: [SystemStatus.Process]
    public init(processes: [SystemStatus.Process]) { self.processes = processes }
}
