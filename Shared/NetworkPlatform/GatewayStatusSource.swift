import Domain
import Wire

/// Domain's `StatusSource`: the gateway's services and processes, and each
/// search process's index.
struct GatewayStatusSource: StatusSource {
    let gateway: GatewayConnection

    func status() async throws(PostsError) -> SystemStatus {
        let status = try await gateway.call(GatewayMethod.status, NoParams())
        let searchProcesses = status.processes.filter { $0.service == SearchMethod.service }
        return SystemStatus(source: gateway.endpoint, uptimeSeconds: status.uptimeSeconds, services: status.services,
                            processes: status.processes, searchIndexes: await searchIndexes(of: searchProcesses))
    }

    /// MDP cannot address one process, but the gateway hands each request
    /// to the least recently used session: ask until every process listed
    /// has answered, at most three asks per session.
    private func searchIndexes(of processes: [SystemStatus.Process]) async -> [SystemStatus.SearchIndex] {
        let expected = Set(processes.compactMap(\.pid))
        let sessions = processes.reduce(0) { $0 + $1.sessions }
        var byProcess: [Int32: SystemStatus.SearchIndex] = [:]
        // Processes without a pid cannot be told apart: one ask per session.
        let asks = expected.isEmpty ? sessions : sessions * 3
        for _ in 0..<asks {
            guard let stats = try? await gateway.call(SearchMethod.stats, NoParams()) else { break }
            byProcess[stats.index.pid] = stats.index.toDomain()
            if !expected.isEmpty && expected.isSubset(of: byProcess.keys) { break }
        }
        return Array(byProcess.values)
    }
}
