import Foundation
import SystemSupport

// Swift's cooperative pool has one thread per core (two on CI): a test that
// blocks one of them (a sleep, a semaphore, a blocking poll, a wait for a
// process) stalls every other test in the run, and view-model tests then
// pass their time limits for nothing. So every wait here is either async or
// on a thread of its own, and the blocking calls it makes are marked
// `noasync`, so the compiler refuses them in async code
// (Tests/Checks/no-blocking.py keeps it so).

/// Runs blocking `work` (a poll on sockets that belong to it, a wait for a
/// process) on a new thread of its own, and resumes with its result: the
/// cooperative threads stay free meanwhile (`SystemSupport.onThread`, as
/// the services do). Sockets `work` makes live and die on that one thread.
public func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await onThread(named: "test-work", work)
}

/// Checks `condition` until it holds or `limit` passes, sleeping `interval`
/// between checks (never blocking a thread); returns whether it held. The
/// condition is checked once more at the deadline, so a slow machine that
/// sleeps past it still gets its last look.
public func eventually(
    within limit: Duration = .seconds(10), every interval: Duration = .milliseconds(25), _ condition: () async throws -> Bool
) async rethrows -> Bool {
    try await firstValue(within: limit, every: interval) { try await condition() ? true : nil } ?? false
}

/// As `eventually`, blocking the calling thread between checks: for a
/// thread of its own, or the benchmark's main thread.
@available(*, noasync, message: "blocks its thread: use eventually")
public func waitBlocking(within limit: Duration, every interval: Duration = .milliseconds(20), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: interval / .seconds(1))
    }
    return condition()
}

/// The first non-nil value `probe` gives within `limit` (nil if none), checked
/// every `interval` without blocking a thread.
public func firstValue<T>(
    within limit: Duration, every interval: Duration = .milliseconds(2), _ probe: () async throws -> T?
) async rethrows -> T? {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if let value = try await probe() { return value }
        try? await Task.sleep(for: interval)
    }
    return try await probe()
}
