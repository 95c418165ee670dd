import Foundation

/// What a finished command printed, and how it exited.
struct CommandResult {
    let status: Int32
    let stdout: String
    let stderr: String
}

extension ProcessHarness {
    /// Runs `executable` to completion (killed after `limit`), with `input` on standard input.
    func run(_ executable: String, _ arguments: [String], input: String? = nil, limit: Duration = .seconds(30),
             without unset: [String] = [], environment extra: [String: String] = [:]) async throws -> CommandResult {
        try await offThread { try self.runBlocking(executable, arguments, input: input, limit: limit, without: unset, environment: extra) }
    }

    private func runBlocking(_ executable: String, _ arguments: [String], input: String?, limit: Duration,
                             without unset: [String], environment extra: [String: String]) throws -> CommandResult {
        let process = Process()
        process.executableURL = Self.binaries.appendingPathComponent(executable)
        process.arguments = arguments
        process.environment = environment.filter { !unset.contains($0.key) }.merging(extra) { $1 }
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let out = Pipe(), err = Pipe(), stdin = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        if let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        }
        // Read while it runs, so a full pipe never blocks it.
        let output = PipeReader(out.fileHandleForReading)
        let errors = PipeReader(err.fileHandleForReading)
        let deadline = ContinuousClock.now + limit
        while process.isRunning, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning {
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw HarnessError("\(executable) \(arguments) did not finish within \(limit)")
        }
        process.waitUntilExit()
        let stdout = String(decoding: output.wait(), as: UTF8.self)
        let stderr = String(decoding: errors.wait(), as: UTF8.self)
        return CommandResult(status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }

    /// Runs the `posts` CLI against this harness's gateway, as a user would
    /// (without the debug logging the harness asks of its services).
    func posts(_ arguments: [String], input: String? = nil) async throws -> CommandResult {
        try await run("posts", arguments, input: input, without: ["POSTS_LOG_LEVEL"])
    }
}

/// Reads a pipe to its end on a thread of its own.
private final class PipeReader: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }.start()
    }

    /// The bytes read; the semaphore orders this read after the thread's write.
    func wait() -> Data {
        done.wait()
        return data
    }
}

/// Runs blocking `work` (waiting for a process) on a thread of its own, so
/// it never holds one of the few threads that every async test shares: with
/// those all blocked, the whole run would stall.
func offThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
