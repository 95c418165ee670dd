import Foundation
import Synchronization
import TestSupport

/// A child process the tests start and reap themselves (posix_spawn and
/// waitpid). Foundation's Process sometimes never noticed a child's exit in
/// this test process: the child stayed a zombie, `waitUntilExit` never
/// returned, and a whole run hung. Every wait here has a deadline.
final class Spawned: Sendable {
    let processIdentifier: pid_t
    private let exitStatus = Mutex<Int32?>(nil)

    /// Starts `path` with `arguments`; standard input, output and error are
    /// the files named (output appended), the working directory `directory`.
    /// The child starts with no signal blocked and default handlers, whatever
    /// the spawning thread had, and with no descriptor of this process but
    /// those three.
    init(
        _ path: String, _ arguments: [String], environment: [String: String], directory: String? = nil,
        input: String = "/dev/null", output: String, errors: String
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        // Nothing else of this process: tests running beside this one hold
        // sockets by the hundred (some without close-on-exec), and a child
        // that inherited them had that many fewer descriptors for its own
        // limits (a gateway started under a descriptor limit ran out before
        // its connection limit).
        guard let closeFrom = Self.closeFrom, closeFrom(&actions, 3) == 0 else {
            throw HarnessError("cannot start \(path): glibc's posix_spawn_file_actions_addclosefrom_np (2.34 and later) is missing")
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        // A working directory through sh, which then becomes the program
        // (exec): glibc's addchdir is not visible to Swift here.
        let (program, arguments) = directory.map { ("/bin/sh", ["-c", #"cd "$0" && exec "$@""#, $0, path] + arguments) } ?? (path, arguments)
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw HarnessError("cannot start \(path): error \(spawned)") }
        processIdentifier = pid
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np`, which its
    /// module map does not show to Swift.
    private static let closeFrom: CloseFrom? = {
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np").map { unsafeBitCast($0, to: CloseFrom.self) }
    }()
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// The exit code (128 + the signal when a signal ended it), once it has exited.
    var terminationStatus: Int32? {
        exitStatus.withLock { known in
            if let known { return known }
            var status: Int32 = 0
            guard waitpid(processIdentifier, &status, WNOHANG) == processIdentifier else { return nil }
            let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
            known = code
            return code
        }
    }

    var isRunning: Bool { terminationStatus == nil }

    func signal(_ number: Int32) { if isRunning { Glibc.kill(processIdentifier, number) } }

    /// Waits up to `limit` for it to exit, without holding a thread; returns
    /// its status, or nil if it still runs.
    @discardableResult
    func exit(within limit: Duration) async -> Int32? {
        await firstValue(within: limit, every: .milliseconds(5)) { terminationStatus }
    }

    /// As `exit(within:)`, blocking the calling thread: for threads of their
    /// own (`onOwnThread`), and for the harness's last clean-up.
    @available(*, noasync, message: "blocks its thread: use exit(within:)")
    @discardableResult
    func wait(within limit: Duration) -> Int32? {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if let status = terminationStatus { return status }
            usleep(5_000)
        }
        return terminationStatus
    }

    /// Kills it (SIGKILL) and reaps it.
    func kill() async {
        signal(SIGKILL)
        await exit(within: .seconds(10))
    }

    /// As `kill()`, returning at once: the reaping is done on a thread of its
    /// own, so a `defer` in an async test may call it.
    func killInBackground() {
        guard isRunning else { return }
        signal(SIGKILL)
        Thread { self.wait(within: .seconds(10)) }.start()
    }

    /// As `kill()`, blocking the calling thread.
    @available(*, noasync, message: "blocks its thread: use kill()")
    func killAndReap() {
        signal(SIGKILL)
        wait(within: .seconds(10))
    }
}
