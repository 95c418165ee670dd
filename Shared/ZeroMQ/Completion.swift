import Synchronization

/// A one-shot signal that async code can await: a loop thread reports that it
/// has finished (or failed to start), and its owner awaits that.
public final class Completion<Value: Sendable>: Sendable {
    private enum State {
        case waiting([CheckedContinuation<Value, Never>])
        case done(Value)
    }

    private let state = Mutex(State.waiting([]))

    public init() {}

    /// Only the first call counts.
    public func complete(_ value: Value) {
        let waiters = state.withLock { state -> [CheckedContinuation<Value, Never>] in
            guard case .waiting(let waiters) = state else { return [] }
            state = .done(value)
            return waiters
        }
        for waiter in waiters { waiter.resume(returning: value) }
    }

    public var value: Value {
        get async {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Value? in
                    switch state {
                    case .done(let value):
                        return value
                    case .waiting(var waiters):
                        waiters.append(continuation)
                        state = .waiting(waiters)
                        return nil
                    }
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }
}
