import Foundation
import Testing

/// Runs each test of a suite on a thread of its own: the test's task (and
/// its child tasks) prefer a `ThreadExecutor`, so a test that computes for
/// seconds (an index of thousands of posts, a fuzz of 100,000 inputs, a
/// reference ranking) holds that thread, not one of the cooperative pool's
/// two. Without it, such suites kept both cooperative threads busy and the
/// view-model tests, whose every step is a task switch, waited behind them
/// for most of a minute (docs/ARCHITECTURE.md, "Threads").
public struct OwnThread: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil, !test.isSuite else { return try await function() }
        let executor = ThreadExecutor(name: "test")
        defer { executor.finish() }
        try await withTaskExecutorPreference(executor) { try await function() }
    }
}

extension Trait where Self == OwnThread {
    /// Each test on a thread of its own (`OwnThread`).
    public static var ownThread: Self { OwnThread() }
}

/// A task executor with one thread of its own, which runs its jobs in the
/// order they came. `finish()` lets the thread end once no job waits.
public final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    // Guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false

    public init(name: String) {
        let thread = Thread { [self] in serve() }
        thread.name = name
        thread.stackSize = 1 << 23
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    public func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
    private func serve() {
        while true {
            condition.lock()
            while jobs.isEmpty && !finished { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let batch = jobs
            jobs.removeAll(keepingCapacity: true)
            condition.unlock()
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }
}
