import Foundation

/// Runs async index calls from the benchmark's synchronous measuring loop.
func blocking(_ body: @escaping @Sendable () async throws -> Void) throws {
    let done = DispatchSemaphore(value: 0)
    let failure = LockedBox()
    Task.detached {
        do { try await body() } catch { failure.error = "\(error)" }
        done.signal()
    }
    done.wait()
    if let error = failure.error { throw BenchError(error) }
}

private final class LockedBox: @unchecked Sendable {
    var error: String?
}
