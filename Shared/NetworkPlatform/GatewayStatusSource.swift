import Domain
import Wire

/// Domain's `StatusSource`: the gateway's services and processes, and each
/// search process's index.
struct GatewayStatusSource: StatusSource {
    let gateway: GatewayConnection

    func status() async throws(PostsError) -> SystemStatus {
        let status = try await gateway.call(GatewayMethod.status, NoParams())
        let searchProcesses = status.processes.filter { $0.service == SearchMethod.service }
        var methods: [MethodTraffic] = []
        for service in status.services where service.processes > 0 {
            methods += await traffic(of: service.name, processes: status.processes.filter { $0.service == service.name })
        }
        return SystemStatus(
            source: gateway.endpoint, uptimeSeconds: status.uptimeSeconds, services: status.services,
            processes: status.processes, searchIndexes: await searchIndexes(of: searchProcesses), methods: methods,
            gateways: await gateways(inUse: gateway.endpoint, answered: status.uptimeSeconds))
    }

    /// Every gateway given, each asked `mmi.status` on a connection of its
    /// own, all at once, within `GatewayConnection.probeTimeout`.
    private func gateways(inUse: String, answered uptime: Double) async -> [GatewayState] {
        await withTaskGroup(of: (Int, GatewayState).self) { group in
            for (index, endpoint) in gateway.endpoints.enumerated() {
                group.addTask {
                    if endpoint == inUse { return (index, GatewayState(endpoint: endpoint, up: true, inUse: true, uptimeSeconds: uptime)) }
                    let status = await gateway.probe(endpoint)
                    return (index, GatewayState(endpoint: endpoint, up: status != nil, inUse: false, uptimeSeconds: status?.uptimeSeconds))
                }
            }
            var states: [(Int, GatewayState)] = []
            for await state in group { states.append(state) }
            return states.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    /// Each process's `rpc.stats`, summed per method (latency: the slowest
    /// process's). A process that does not answer it (not built on this
    /// product's router) adds nothing.
    private func traffic(of service: String, processes: [SystemStatus.Process]) async -> [MethodTraffic] {
        let answers = await askEach(processes) { () async -> (Int32, ServerStats)? in
            (try? await gateway.call(ServerStats.method(of: service), NoParams())).map { ($0.pid, $0) }
        }
        var byMethod: [String: MethodTraffic] = [:]
        for method in answers.flatMap(\.methods) {
            var sum =
                byMethod[method.method]
                ?? MethodTraffic(
                    service: service, method: method.method, requests: 0, errors: 0,
                    p50Milliseconds: nil, p99Milliseconds: nil)
            sum.requests += method.requests
            sum.errors += method.errors
            sum.p50Milliseconds = [sum.p50Milliseconds, method.p50Ms].compactMap { $0 }.max()
            sum.p99Milliseconds = [sum.p99Milliseconds, method.p99Ms].compactMap { $0 }.max()
            byMethod[method.method] = sum
        }
        return byMethod.values.sorted { $0.method < $1.method }
    }

    /// MDP cannot address one process, but the gateway hands each request
    /// to the least recently used session: ask until every process listed
    /// has answered, at most three asks per session.
    private func searchIndexes(of processes: [SystemStatus.Process]) async -> [SystemStatus.SearchIndex] {
        await askEach(processes) { () async -> (Int32, SystemStatus.SearchIndex)? in
            (try? await gateway.call(SearchMethod.stats, NoParams())).map { ($0.index.pid, $0.index.toDomain()) }
        }
    }

    /// One answer from each process, by pid: `ask` is sent until every
    /// process listed has answered, at most three asks per session.
    private func askEach<T>(_ processes: [SystemStatus.Process], _ ask: () async -> (pid: Int32, answer: T)?) async -> [T] {
        let expected = Set(processes.compactMap(\.pid))
        let sessions = processes.reduce(0) { $0 + $1.sessions }
        var byProcess: [Int32: T] = [:]
        // Processes without a pid cannot be told apart: one ask per session.
        let asks = expected.isEmpty ? sessions : sessions * 3
        for _ in 0..<asks {
            guard let (pid, answer) = await ask() else { break }
            byProcess[pid] = answer
            if !expected.isEmpty && expected.isSubset(of: byProcess.keys) { break }
        }
        return Array(byProcess.values)
    }
}
