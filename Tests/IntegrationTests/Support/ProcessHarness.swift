import Foundation
import Testing

/// Starts the real executables in a private directory, and always stops
/// them and removes the directory (call `shutdown()` in a `defer`).
/// Children also get POSTS_EXIT_WITH_PARENT=1, so they exit if the test
/// runner itself dies.
final class ProcessHarness: @unchecked Sendable {
    let directory: String
    let environment: [String: String]
    private let lock = NSLock()
    private var processes: [String: Spawned] = [:]

    init() throws {
        // Short, because an ipc:// path may be at most 107 bytes.
        var template = Array("/tmp/pt-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw HarnessError("mkdtemp failed: errno \(errno)") }
        directory = String(cString: made)
        var environment = ProcessInfo.processInfo.environment
        environment["POSTS_RUNTIME_DIR"] = directory
        // Search indexes (and any default database) in this harness's directory, never the user's.
        environment["POSTS_DATA_DIR"] = directory
        environment["POSTS_EXIT_WITH_PARENT"] = "1"
        environment["POSTS_LOG_LEVEL"] = "debug"
        environment.removeValue(forKey: "POSTS_GATEWAY")
        environment.removeValue(forKey: "POSTS_GATEWAY_BIND")
        self.environment = environment
    }

    deinit { shutdown() }

    /// The gateway endpoint every process in this harness uses by default.
    var gatewayEndpoint: String { "ipc://\(directory)/gateway.ipc" }

    /// Where `swift build` put the executables: next to the test bundle.
    static let binaries: URL = {
        let candidates = [
            Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("gateway").path) }
            ?? candidates[0]
    }()

    /// Starts `executable` under `name` (unique per harness); output goes to
    /// `<name>.log`. `extra` is added to the environment; `wrapper` runs it
    /// through another command (such as `ip netns exec NAME`).
    @discardableResult
    func start(
        _ name: String, _ executable: String, _ arguments: [String] = [], environment extra: [String: String] = [:],
        wrapper: [String] = []
    ) throws -> Spawned {
        let log = logPath(name)
        let command = wrapper + [executable.hasPrefix("/") ? executable : Self.binaries.appendingPathComponent(executable).path] + arguments
        let process = try Spawned(
            command[0], Array(command.dropFirst()), environment: environment.merging(extra) { $1 },
            output: log, errors: log)
        lock.withLock { processes[name] = process }
        return process
    }

    func logPath(_ name: String) -> String { "\(directory)/\(name).log" }

    func log(_ name: String) -> String {
        (try? String(contentsOfFile: logPath(name), encoding: .utf8)) ?? ""
    }

    func process(_ name: String) -> Spawned? { lock.withLock { processes[name] } }

    /// SIGKILL: no chance to clean up, as in a crash.
    func kill(_ name: String) {
        lock.withLock { processes.removeValue(forKey: name) }?.killAndReap()
    }

    /// SIGTERM, then the exit status (nil if it had to be killed after `grace`).
    func terminate(_ name: String, grace: Duration = .seconds(5)) -> Int32? {
        guard let process = lock.withLock({ processes.removeValue(forKey: name) }) else { return nil }
        process.signal(SIGTERM)
        guard let status = process.wait(within: grace) else {
            process.killAndReap()
            return nil
        }
        return status
    }

    func shutdown() {
        let all = lock.withLock { () -> [Spawned] in
            defer { processes.removeAll() }
            return Array(processes.values)
        }
        for process in all { process.signal(SIGTERM) }
        for process in all where process.wait(within: .seconds(3)) == nil { process.killAndReap() }
        try? FileManager.default.removeItem(atPath: directory)
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Polls `condition` until it holds or `limit` passes; returns whether it held.
func eventually(within limit: Duration = .seconds(10), _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(25))
    }
    return try await condition()
}
