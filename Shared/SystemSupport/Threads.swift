#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Starts a detached POSIX thread named `name` (at most 15 characters are
/// kept; Glibc's pthread_setname_np is not visible to Swift, so the name is
/// written where Linux keeps it). A thread that cannot be started stops the
/// process with the reason: nothing can run without it.
public func startThread(named name: String, _ body: @escaping @Sendable () -> Void) {
    let start = Unmanaged.passRetained(ThreadStart(name: name, body: body)).toOpaque()
    var thread = pthread_t()
    let code = pthread_create(
        &thread, nil,
        { context in
            guard let context else { return nil }
            Unmanaged<ThreadStart>.fromOpaque(context).takeRetainedValue().run()
            return nil
        }, start)
    guard code == 0 else {
        Unmanaged<ThreadStart>.fromOpaque(start).release()
        fatalError("cannot start thread \(name): \(String(cString: strerror(code)))")
    }
    pthread_detach(thread)
}

/// Sleeps the calling thread.
@available(*, noasync, message: "blocks its thread: call it on a thread of its own")
public func sleepThread(seconds: Double) {
    var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
}

/// Runs `work` on a thread of its own named `name` and answers what it
/// returned or threw: work that holds a thread for long (a file written
/// or read whole) without holding one of Swift's cooperative threads. The
/// work, and what it captured, is let go before the caller resumes.
public func onThread<T: Sendable>(named name: String, _ work: @escaping @Sendable () throws -> T) async throws -> T {
    let job = ThreadJob(work)
    return try await withCheckedThrowingContinuation { continuation in
        startThread(named: name) { continuation.resume(with: job.run()) }
    }
}

/// `onThread`'s work, taken by the one thread that runs it.
private final class ThreadJob<T: Sendable>: @unchecked Sendable {
    private var work: (@Sendable () throws -> T)?

    init(_ work: @escaping @Sendable () throws -> T) { self.work = work }

    /// Runs the work once, and lets it go.
    func run() -> Result<T, any Error> {
        guard let work else { preconditionFailure("a thread's work runs once") }
        self.work = nil
        return Result { try work() }
    }
}
