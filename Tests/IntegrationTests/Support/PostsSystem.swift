import Foundation
import Wire
import ZeroMQ

extension ProcessHarness {
    var databasePath: String { "\(directory)/posts.sqlite" }

    /// Starts posts-service on this harness's database and waits until the
    /// gateway lists all its sessions.
    /// `database` names the store: this harness's SQLite file unless given
    /// (`["--database-url", url]` for PostgreSQL).
    func startPostsService(
        _ name: String = "posts-service", sessions: Int = 2, _ arguments: [String] = [],
        database: [String]? = nil, environment: [String: String] = [:], context: Context
    ) async throws {
        try await startWorker(
            name, "posts-service", service: "posts", sessions: sessions,
            (database ?? ["--database", databasePath]) + ["--sessions", "\(sessions)"] + arguments, environment: environment,
            context: context)
    }

    /// Starts a search-service and waits until the gateway lists its sessions.
    func startSearchService(
        _ name: String, sessions: Int = 1, _ arguments: [String] = [], environment: [String: String] = [:],
        context: Context
    ) async throws -> Int32 {
        try await startWorker(
            name, "search-service", service: "search", sessions: sessions,
            ["--sessions", "\(sessions)", "--sync-interval", "250ms"] + arguments, environment: environment, context: context)
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
