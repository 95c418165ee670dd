import Dispatch
import Synchronization
import SystemSupport

/// Work begun on another thread at once, its result waited for where it
/// is needed, on a thread that may block (the index's writer queue, which
/// is not one of Swift's cooperative threads): a page's words are found
/// while SQLite writes its documents, and a page is ranked while SQLite
/// writes the next one's. The work has a thread of its own, not one of
/// dispatch's shared pool, which may all be busy while the writer waits
/// for it.
final class InBackground<Value: Sendable>: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let result = Mutex<Result<Value, any Error>?>(nil)

    init(named name: String = "index-words", _ work: @escaping @Sendable () throws -> Value) {
        startThread(named: name) { [self] in
            let outcome = Result { try work() }
            result.withLock { $0 = outcome }
            done.signal()
        }
    }

    /// Blocks until the work is done; its value, or what it threw.
    @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
    func wait() throws -> Value {
        done.wait()
        done.signal()  // for the next to wait
        return try result.withLock { $0! }.get()
    }
}
