import Domain
import Foundation
import LocalPlatform
import Logging
import Synchronization

/// Keeps a worker's index in step with posts-service: pulls `posts.changes`
/// after what it applied until caught up, then waits for a change notice
/// beyond that, or for the timer, and pulls again. Notices may be lost,
/// repeated or reordered; the pull is what counts, so nothing is lost.
final class IndexSync: Sendable {
    let index: LocalSearchIndex
    private let changes: any PostChangesUseCase
    private let interval: Duration
    private let logger: Logger
    private let wake = WakeSignal()
    /// The newest sequence heard of, from notices or pulls.
    let headSeen = Atomic<Int64>(0)
    /// Set once the first catch-up is done: until then the index is partial.
    let caughtUpOnce = Atomic<Bool>(false)

    init(index: LocalSearchIndex, changes: any PostChangesUseCase, interval: Duration, logger: Logger) {
        self.index = index
        self.changes = changes
        self.interval = interval
        self.logger = logger
    }

    /// A notice from the bus: pull now if it is news.
    func heard(head: Int64) {
        headSeen.max(head, ordering: .relaxed)
        wake.notify()
    }

    func run() async {
        while !Task.isCancelled {
            do {
                try await catchUp()
                caughtUpOnce.store(true, ordering: .releasing)
            } catch {
                logger.warning("cannot pull changes; trying again", metadata: ["error": "\(error)", "after": "\(interval)"])
            }
            await wake.wait(upTo: interval)
        }
    }

    private func catchUp() async throws(PostsError) {
        var applied = try await index.appliedSequence()
        while true {
            let page = try await changes.changes(after: applied, limit: 500)
            headSeen.max(page.head, ordering: .relaxed)
            let next = try await index.apply(page)
            if applied > 0 && next == 0 {  // only a reset goes back to 0
                logger.warning("the posts database was reset or restored; rebuilding the index",
                               metadata: ["applied": "\(applied)", "head": "\(page.head)"])
                headSeen.store(page.head, ordering: .relaxed)
            } else if page.changes.isEmpty || next >= page.head {
                return
            }
            applied = next
        }
    }
}

/// Wakes a waiting task, early or when its time is up; a wake with nobody
/// waiting is kept for the next wait.
final class WakeSignal: Sendable {
    private struct State {
        var pending = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    func notify() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    func wait(upTo duration: Duration) async {
        let timer = Task { [self] in
            try? await Task.sleep(for: duration)
            if !Task.isCancelled { notify() }
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Bool in
                    if state.pending {
                        state.pending = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            notify()  // shutting down: stop waiting now
        }
        timer.cancel()
    }
}
