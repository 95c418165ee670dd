import Foundation
import TestSupport
import Testing
import Wire
import ZeroMQ

/// Deadlines through the real gateway: `params._meta.timeoutMs` is the
/// client's budget, and the gateway answers -32004 when it runs out.
@Suite("Gateway deadlines", .serialized, .timeLimit(.minutes(5)))
struct GatewayDeadlineTests {
    private func budget(_ milliseconds: Int, _ n: Int) -> JSONValue {
        ["n": .integer(Int64(n)), "_meta": ["timeoutMs": .integer(Int64(milliseconds))]]
    }

    @Test func test_aQueueOfSlowRequestsWhoseClientsGaveUp_neverReachesAWorker() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startGateway(context: context)
        // The first request holds the one worker for 20 s: long enough that
        // the five behind it queue while it is busy even on a machine loaded
        // enough to take seconds to send them (with 8 s, one CI run sent
        // them after the worker was free again, and it took one).
        // One request at a time (`--credit 1`, as 7/MDP says): the rest queue.
        try await harness.startEcho("slow", ["--delay", "20s", "--credit", "1"], context: context)
        let client = try GatewayClient(endpoint: harness.gatewayEndpoint, context: context, timeout: .seconds(30), retries: 0)
        let first = Task { try await client.call(service: "echo", method: "echo", params: ["n": 0]) }
        #expect(await eventually { (try? await client.status().processes.first?.busy) == 1 })
        let given = try await withThrowingTaskGroup(of: Result<JSONValue, JSONRPCError>.self) { group in
            for n in 1...5 { group.addTask { try await client.call(service: "echo", method: "echo", params: budget(300, n)) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for outcome in given {
            guard case .failure(let error) = outcome else { Issue.record("a request past its budget was answered: \(outcome)"); continue }
            #expect(error.code == .timeout && error.message.contains("before a 'echo' worker took it"), "\(error)")
        }
        #expect(try await first.value.get()["params"]?["n"] == 0)
        let status = try await client.status()
        #expect(status.processes.first?.handled == 1, "only the request with no budget reached the worker: \(status.processes)")
    }

    @Test func test_aBudgetThatRunsOutWithAWorker_isAnsweredTimeout_andTheNextClientGetsItsOwnAnswer() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startGateway(context: context)
        try await harness.startEcho("slow", ["--delay", "3s"], context: context)
        let client = try GatewayClient(endpoint: harness.gatewayEndpoint, context: context, timeout: .seconds(10), retries: 0)
        let started = ContinuousClock.now
        guard case .failure(let error) = try await client.call(service: "echo", method: "echo", params: budget(300, 1)) else {
            Issue.record("expected a timeout"); return
        }
        #expect(error.code == .timeout && error.message.contains("while a 'echo' worker had it"), "\(error)")
        // Answered when the budget ran out, not when the worker finished: before
        // its 3 s were up, and while the gateway still counts its request
        // as unanswered by the worker (a bound on the wall clock alone failed
        // on a loaded machine that starved the gateway for seconds).
        #expect(started.duration(to: .now) < .seconds(3), "answered before the worker could have finished")
        #expect(try await client.status().processes.first?.handled == 0, "the worker had not answered yet")
        #expect(try await client.call(service: "echo", method: "echo", params: ["n": 2]).get()["params"]?["n"] == 2)
    }
}
