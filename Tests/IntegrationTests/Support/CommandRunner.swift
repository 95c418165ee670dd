import Foundation
import TestSupport

/// What a finished command printed, and how it exited.
struct CommandResult {
    let status: Int32
    let stdout: String
    let stderr: String
}

extension ProcessHarness {
    /// Runs `executable` to completion (killed after `limit`), with `input` on standard input.
    /// `wrapper` runs it through another command (`ip netns exec NAME`).
    func run(
        _ executable: String, _ arguments: [String], input: String? = nil, limit: Duration = .seconds(30),
        without unset: [String] = [], environment extra: [String: String] = [:], wrapper: [String] = []
    ) async throws -> CommandResult {
        try await onOwnThread {
            try self.runBlocking(executable, arguments, input: input, limit: limit, without: unset, environment: extra, wrapper: wrapper)
        }
    }

    @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
    private func runBlocking(
        _ executable: String, _ arguments: [String], input: String?, limit: Duration,
        without unset: [String], environment extra: [String: String], wrapper: [String]
    ) throws -> CommandResult {
        // Files, not pipes: nothing to drain while it runs, and no reader thread.
        let files = "\(directory)/run-\(UUID().uuidString.prefix(8))"
        defer { for suffix in [".in", ".out", ".err"] { try? FileManager.default.removeItem(atPath: files + suffix) } }
        if let input { try input.write(toFile: files + ".in", atomically: false, encoding: .utf8) }
        let command = wrapper + [executable.hasPrefix("/") ? executable : Self.binaries.appendingPathComponent(executable).path] + arguments
        let process = try Spawned(
            command[0], Array(command.dropFirst()),
            environment: environment.filter { !unset.contains($0.key) }.merging(extra) { $1 },
            directory: directory, input: input == nil ? "/dev/null" : files + ".in",
            output: files + ".out", errors: files + ".err")
        guard let status = process.wait(within: limit) else {
            process.killAndReap()
            throw HarnessError("\(executable) \(arguments) did not finish within \(limit)")
        }
        return CommandResult(
            status: status, stdout: (try? String(contentsOfFile: files + ".out", encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: files + ".err", encoding: .utf8)) ?? "")
    }

    /// Runs the `posts` CLI against this harness's gateway, as a user would
    /// (without the debug logging the harness asks of its services).
    func posts(_ arguments: [String], input: String? = nil) async throws -> CommandResult {
        try await run("posts", arguments, input: input, without: ["POSTS_LOG_LEVEL"])
    }
}
