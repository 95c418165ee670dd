import Foundation
import TestSupport
import Testing

/// Starts the real executables in a private directory, and always stops
/// them and removes the directory (call `shutdown()` in a `defer`; it
/// returns at once and finishes on a thread of its own).
/// Children also get POSTS_EXIT_WITH_PARENT=1, so they exit if the test
/// runner itself dies.
final class ProcessHarness: @unchecked Sendable {
    let directory: String
    let environment: [String: String]
    private let lock = NSLock()
    private var processes: [String: Spawned] = [:]
    private var cleanUps: [@Sendable () -> Void] = []
    private var shutDown = false

    /// The gateway endpoint every process in this harness uses by default:
    /// a socket file in its directory, or with `tcp`, a free port of
    /// loopback in plaintext (POSTS_INSECURE=1, as tcp:// asks for CURVE).
    let gatewayEndpoint: String

    init(tcp: Bool = false) throws {
        directory = try makeTemporaryDirectory("pt")
        gatewayEndpoint = tcp ? "tcp://127.0.0.1:\(try freeTCPPort())" : "ipc://\(directory)/gateway.ipc"
        var environment = ProcessInfo.processInfo.environment
        environment["POSTS_RUNTIME_DIR"] = directory
        // Search indexes (and any default database) in this harness's directory, never the user's.
        environment["POSTS_DATA_DIR"] = directory
        environment["POSTS_EXIT_WITH_PARENT"] = "1"
        environment["POSTS_LOG_LEVEL"] = "debug"
        environment.removeValue(forKey: "POSTS_GATEWAY")
        environment.removeValue(forKey: "POSTS_GATEWAY_BIND")
        if tcp {
            environment["POSTS_GATEWAY"] = gatewayEndpoint
            environment["POSTS_GATEWAY_BIND"] = gatewayEndpoint
            environment["POSTS_INSECURE"] = "1"
        }
        self.environment = environment
    }

    deinit { shutdown() }

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
    func kill(_ name: String) async {
        let process = lock.withLock { processes.removeValue(forKey: name) }
        await process?.kill()
    }

    /// SIGTERM, then the exit status (nil if it had to be killed after `grace`).
    func terminate(_ name: String, grace: Duration = .seconds(5)) async -> Int32? {
        guard let process = lock.withLock({ processes.removeValue(forKey: name) }) else { return nil }
        process.signal(SIGTERM)
        guard let status = await process.exit(within: grace) else {
            await process.kill()
            return nil
        }
        return status
    }

    /// Runs blocking `work` first when the harness shuts down (on its thread),
    /// before its processes are stopped and its directory removed.
    func atShutdown(_ work: @escaping @Sendable () -> Void) {
        lock.withLock { cleanUps.append(work) }
    }

    /// Stops every process it started and removes its directory: SIGTERM
    /// at once, then on a thread of its own what `atShutdown` asked, SIGKILL
    /// to any still running after 3 s, the reaping, and the removal. It returns at once, so a `defer`
    /// in an async test can call it without holding one of the cooperative
    /// threads (nor wait for a process that ignores SIGTERM). Once only: the
    /// `deinit` after a `defer` finds it done.
    func shutdown() {
        let taken = lock.withLock { () -> (all: [Spawned], cleanUps: [@Sendable () -> Void])? in
            guard !shutDown else { return nil }
            defer { (processes, cleanUps, shutDown) = ([:], [], true) }
            return (Array(processes.values), cleanUps)
        }
        guard let (all, cleanUps) = taken else { return }
        for process in all { process.signal(SIGTERM) }
        let directory = directory
        Cleanups.started()
        Thread {
            for cleanUp in cleanUps.reversed() { cleanUp() }
            for process in all where process.wait(within: .seconds(3)) == nil { process.killAndReap() }
            try? FileManager.default.removeItem(atPath: directory)
            Cleanups.finished()
        }.start()
    }
}

/// Shutdowns still finishing on their threads. The test process waits for
/// them as it exits (up to 15 s), so the last test's processes are reaped
/// and its directory removed, not cut off by the exit.
enum Cleanups {
    private static let pending = NSCondition()
    nonisolated(unsafe) private static var count = 0  // guarded by `pending`
    private static let waitAtExit: Void = { atexit { Cleanups.waitForAll() } }()

    static func started() {
        _ = waitAtExit
        pending.lock()
        count += 1
        pending.unlock()
    }

    static func finished() {
        pending.lock()
        count -= 1
        pending.broadcast()
        pending.unlock()
    }

    /// Called at exit, on the main thread.
    @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
    static func waitForAll() {
        let deadline = Date().addingTimeInterval(15)
        pending.lock()
        while count > 0, pending.wait(until: deadline) {}
        pending.unlock()
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
