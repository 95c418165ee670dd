import Foundation
import TestSupport
import ZeroMQ

/// Two gateways side by side in one harness directory, each with its own
/// endpoints (gateway "a" on the harness's defaults, "b" beside them), and
/// the lists that workers and clients are given to use both.
struct TwoGateways {
    let harness: ProcessHarness

    func endpoint(_ name: String) -> String { "ipc://\(harness.directory)/\(name == "a" ? "gateway" : "gateway-\(name)").ipc" }
    func publish(_ name: String) -> String { "ipc://\(harness.directory)/\(name == "a" ? "events-publish" : "events-publish-\(name)").ipc" }
    func subscribe(_ name: String) -> String {
        "ipc://\(harness.directory)/\(name == "a" ? "events-subscribe" : "events-subscribe-\(name)").ipc"
    }

    var endpoints: [String] { ["a", "b"].map(endpoint) }

    /// What a worker or client is given to use both gateways.
    var environment: [String: String] {
        [
            "POSTS_GATEWAY": endpoints.joined(separator: ","),
            "POSTS_EVENTS_PUBLISH": ["a", "b"].map(publish).joined(separator: ","),
            "POSTS_EVENTS_SUBSCRIBE": ["a", "b"].map(subscribe).joined(separator: ","),
        ]
    }

    /// Starts gateway `name` ("a" or "b") and waits until it answers.
    func start(_ name: String, _ arguments: [String] = [], context: Context) async throws {
        try harness.start(
            "gateway-\(name)", "gateway",
            ["--bind", endpoint(name), "--events-publish", publish(name), "--events-subscribe", subscribe(name)] + arguments)
        let probe = try GatewayClient(endpoint: endpoint(name), context: context, timeout: .milliseconds(200), retries: 0)
        guard await eventually({ (try? await probe.mmiService("posts")) != nil }) else {
            throw HarnessError("gateway \(name) did not come up:\n\(harness.log("gateway-\(name)"))")
        }
    }

    /// Starts a worker executable on both gateways and waits until each lists
    /// `sessions` more sessions of `service`.
    func startWorker(
        _ name: String, _ executable: String, service: String, sessions: Int, _ arguments: [String], context: Context
    ) async throws {
        let clients = try endpoints.map { try GatewayClient(endpoint: $0, context: context, timeout: .milliseconds(500), retries: 0) }
        var before: [Int] = []
        for client in clients { before.append((try? await client.workers(of: service)) ?? 0) }
        try harness.start(name, executable, arguments + ["--sessions", "\(sessions)"], environment: environment)
        for (client, count) in zip(clients, before) {
            guard await eventually({ ((try? await client.workers(of: service)) ?? 0) >= count + sessions }) else {
                throw HarnessError("\(name) did not register with every gateway:\n\(harness.log(name))")
            }
        }
    }
}
