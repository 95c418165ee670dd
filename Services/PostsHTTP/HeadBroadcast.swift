import Domain
import ServiceLifecycle
import Synchronization

/// The newest change sequence this edge has heard of (from the event bus,
/// or the watch's poll), for every stream waiting for it: one watch for
/// the process, however many streams.
final class HeadBroadcast: Sendable {
    private struct State {
        var head: Int64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    /// A head that is not the one known wakes every stream: a newer one has
    /// changes to send, an older one may be a database made anew (a reset,
    /// which each stream's next fetch finds).
    func publish(_ head: Int64) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard head != state.head else { return [] }
            state.head = head
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Waits until a head past `seen` is heard of (true), or `limit`
    /// passes or the task is cancelled (false).
    func wait(past seen: Int64, upTo limit: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                try? await Task.sleep(for: limit)
                return false
            }
            group.addTask { await self.heard(past: seen) }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    private func heard(past seen: Int64) async -> Bool {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state -> Bool in
                    if state.head > seen || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
        return !Task.isCancelled
    }
}

/// Hears of every change (the event bus, or the watch's poll) for the
/// change streams, for as long as the edge runs.
struct HeadWatch: Service {
    let watch: any PostsWatchUseCase
    let heads: HeadBroadcast

    /// The loop is a child task cancelled at shutdown, not the stream
    /// wrapped in `cancelOnGracefulShutdown()`: that merged every change
    /// with the shutdown signal, about 30,000 instructions a change (most
    /// of them generic metadata looked up at run time), paid on every
    /// write whether or not a stream was open.
    func run() async throws {
        let (watch, heads) = (self.watch, self.heads)
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await head in watch.changes() { heads.publish(head) }
            }
            try? await gracefulShutdown()
            group.cancelAll()
        }
    }
}
