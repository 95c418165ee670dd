import Synchronization

/// A value behind a lock that tasks can wait on: a wait returns as soon as
/// the value satisfies it, however long that takes, so a test waits for
/// what it needs to see rather than for a while. (A wait that is never
/// satisfied ends when the suite's time limit cancels the test.)
public final class Waitable<Value: Sendable>: Sendable {
    private struct Waiter {
        var id: Int
        var until: @Sendable (Value) -> Bool
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var value: Value
        var waiters: [Waiter] = []
        var cancelled: Set<Int> = []
        var nextID = 0
    }

    private let state: Mutex<State>

    public init(_ value: Value) { state = Mutex(State(value: value)) }

    public var value: Value { state.withLock { $0.value } }

    /// Changes the value, then wakes the waits it now satisfies.
    @discardableResult
    public func update<Result>(_ body: (inout Value) -> Result) -> Result {
        let (result, ready) = state.withLock { state in
            let result = body(&state.value)
            let value = state.value
            var ready: [Waiter] = []
            state.waiters.removeAll { waiter in
                guard waiter.until(value) else { return false }
                ready.append(waiter)
                return true
            }
            return (result, ready)
        }
        ready.forEach { $0.continuation.resume() }
        return result
    }

    /// Returns once the value satisfies `until` (at once if it does now), or the task is cancelled.
    public func wait(until: @escaping @Sendable (Value) -> Bool) async {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state in
                    if state.cancelled.remove(id) != nil || until(state.value) { return true }
                    state.waiters.append(Waiter(id: id, until: until, continuation: continuation))
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else {
                    state.cancelled.insert(id)  // not waiting yet: do not start
                    return nil
                }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume()
        }
    }
}
