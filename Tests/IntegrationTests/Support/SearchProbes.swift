/// What the `search` service answers through the gateway, as the search
/// tests read it: the total, the worker process that answered, the titles.
func search(_ client: GatewayClient, _ q: String) async throws -> (total: Int, worker: Int32, titles: [String]) {
    let result = try await client.call(service: "search", method: "search.query", params: ["q": .string(q), "limit": 50]).get()
    guard case .array(let hits)? = result["hits"] else { throw HarnessError("no hits array: \(result)") }
    return (result["total"]?.intValue ?? -1, Int32(result["pid"]?.intValue ?? 0), hits.compactMap { $0["title"]?.stringValue })
}

/// Queries until every worker in `workers` has answered with `expected` hits.
func everyWorkerFinds(_ client: GatewayClient, _ q: String, _ expected: Int, workers: Set<Int32>) async throws -> Bool {
    var agreed: Set<Int32> = []
    return await eventually(within: .seconds(20)) {
        guard let answer = try? await search(client, q) else { return false }
        if answer.total == expected { agreed.insert(answer.worker) } else { agreed.remove(answer.worker) }
        return agreed.isSuperset(of: workers)
    }
}
