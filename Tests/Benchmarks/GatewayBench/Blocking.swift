import Foundation
import Synchronization

/// Runs async calls from the benchmark's synchronous measuring loop, which
/// runs on the main thread (main.swift), and returns what `body` returns.
@available(*, noasync, message: "blocks its thread: call it on a thread of its own")
func blocking<Value: Sendable>(_ body: @escaping @Sendable () async throws -> Value) throws -> Value {
    let done = DispatchSemaphore(value: 0)
    let outcome = Mutex<Result<Value, BenchError>?>(nil)
    Task.detached {
        let result: Result<Value, BenchError>
        do { result = .success(try await body()) } catch { result = .failure(BenchError("\(error)")) }
        outcome.withLock { $0 = result }
        done.signal()
    }
    done.wait()
    return try outcome.withLock { $0! }.get()
}
