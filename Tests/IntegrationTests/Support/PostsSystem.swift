import Foundation
import Wire
import ZeroMQ

extension ProcessHarness {
    var databasePath: String { "\(directory)/posts.sqlite" }

    /// Starts posts-service on this harness's database and waits until the
    /// gateway lists all its sessions.
    func startPostsService(_ name: String = "posts-service", sessions: Int = 2, _ arguments: [String] = [], context: Context) async throws {
        let client = try GatewayClient(endpoint: gatewayEndpoint, context: context, timeout: .milliseconds(500), retries: 0)
        let before = (try? await client.workers(of: "posts")) ?? 0
        try start(name, "posts-service", ["--database", databasePath, "--sessions", "\(sessions)"] + arguments)
        let registered = await eventually { ((try? await client.workers(of: "posts")) ?? 0) >= before + sessions }
        guard registered else { throw HarnessError("\(name) did not register:\n\(log(name))") }
    }

    /// Starts a search-service and waits until the gateway lists its sessions.
    func startSearchService(_ name: String, sessions: Int = 1, _ arguments: [String] = [], context: Context) async throws -> Int32 {
        let client = try GatewayClient(endpoint: gatewayEndpoint, context: context, timeout: .milliseconds(500), retries: 0)
        let before = (try? await client.workers(of: "search")) ?? 0
        let process = try start(name, "search-service", ["--sessions", "\(sessions)", "--sync-interval", "250ms"] + arguments)
        let registered = await eventually { ((try? await client.workers(of: "search")) ?? 0) >= before + sessions }
        guard registered else { throw HarnessError("\(name) did not register:\n\(log(name))") }
        return process.processIdentifier
    }

    /// A gateway and one posts-service, ready for the `posts` CLI.
    func startPostsSystem(context: Context) async throws {
        try await startGateway(context: context)
        try await startPostsService(context: context)
    }
}

extension CommandResult {
    /// Standard output parsed as JSON.
    var json: JSONValue? { try? JSONDecoder().decode(JSONValue.self, from: Data(stdout.utf8)) }
    var trimmed: String { stdout.trimmingCharacters(in: .whitespacesAndNewlines) }
}
