/// Status, in a stable order: services by name, processes by service and pid.
public struct StatusInteractor: StatusUseCase {
    let source: any StatusSource

    public init(source: any StatusSource) { self.source = source }

    public func status() async throws(PostsError) -> SystemStatus {
        var status = try await source.status()
        status.services.sort { $0.name < $1.name }
        status.processes.sort { ($0.service, $0.pid ?? 0, $0.name) < ($1.service, $1.pid ?? 0, $1.name) }
        status.searchIndexes.sort { $0.pid < $1.pid }
        return status
    }
}
