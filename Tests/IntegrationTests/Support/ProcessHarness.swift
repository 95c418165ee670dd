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
    private var processes: [String: Process] = [:]

    init() throws {
        // Short, because an ipc:// path may be at most 107 bytes.
        var template = Array("/tmp/pt-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw HarnessError("mkdtemp failed: errno \(errno)") }
        directory = String(cString: made)
        var environment = ProcessInfo.processInfo.environment
        environment["POSTS_RUNTIME_DIR"] = directory
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
        let candidates = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
                          URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("gateway").path) }
            ?? candidates[0]
    }()

    /// Starts `executable` under `name` (unique per harness); output goes to `<name>.log`.
    @discardableResult
    func start(_ name: String, _ executable: String, _ arguments: [String] = []) throws -> Process {
        let process = Process()
        process.executableURL = Self.binaries.appendingPathComponent(executable)
        process.arguments = arguments
        process.environment = environment
        let log = logPath(name)
        if !FileManager.default.fileExists(atPath: log) { _ = FileManager.default.createFile(atPath: log, contents: nil) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        handle.seekToEndOfFile()
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        lock.withLock { processes[name] = process }
        return process
    }

    func logPath(_ name: String) -> String { "\(directory)/\(name).log" }

    func log(_ name: String) -> String {
        (try? String(contentsOfFile: logPath(name), encoding: .utf8)) ?? ""
    }

    func process(_ name: String) -> Process? { lock.withLock { processes[name] } }

    /// SIGKILL: no chance to clean up, as in a crash.
    func kill(_ name: String) {
        guard let process = lock.withLock({ processes.removeValue(forKey: name) }) else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// SIGTERM, then the exit status (nil if it had to be killed after `grace`).
    func terminate(_ name: String, grace: Duration = .seconds(5)) -> Int32? {
        guard let process = lock.withLock({ processes.removeValue(forKey: name) }) else { return nil }
        process.terminate()
        guard waitForExit(process, within: grace) else {
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        return process.terminationStatus
    }

    func shutdown() {
        let all = lock.withLock { () -> [Process] in
            defer { processes.removeAll() }
            return Array(processes.values)
        }
        for process in all where process.isRunning { process.terminate() }
        for process in all where !waitForExit(process, within: .seconds(3)) {
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func waitForExit(_ process: Process, within limit: Duration) -> Bool {
        let deadline = ContinuousClock.now + limit
        while process.isRunning, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.02) }
        return !process.isRunning
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
