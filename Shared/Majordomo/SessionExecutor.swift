import Dispatch
import Synchronization
import ZeroMQ
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Runs a worker session's request handlers on the session's own thread.
///
/// A handler that finishes without waiting on anything (a read from SQLite,
/// an echo) then runs start to end between receiving the request and
/// sending the reply, with no hand-off to another thread and back: two
/// thread wake-ups fewer per request. A handler that does wait (on a
/// database queue, say) resumes here when its job is enqueued, which wakes
/// the session's poll. Long synchronous work in a handler holds up that
/// session's heartbeats: it must stay well within the heartbeat expiry.
///
/// Once the session has ended, jobs still arriving (handlers that outlived
/// it) run on Dispatch's global queue, so no task is ever stranded.
final class SessionExecutor: TaskExecutor, Sendable {
    private struct State {
        var jobs: [UnownedJob] = []
        var closed = false
        /// The session's thread, once it has called `adopt`.
        var owner: pthread_t?
    }

    private let state = Mutex(State())
    private let waker: Waker

    init(waker: Waker) { self.waker = waker }

    /// Makes the calling thread the one that runs the jobs.
    func adopt() { state.withLock { $0.owner = pthread_self() } }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let (closed, fromOwner) = state.withLock { state in
            if !state.closed { state.jobs.append(job) }
            return (state.closed, state.owner.map { pthread_equal($0, pthread_self()) != 0 } ?? false)
        }
        if closed {
            DispatchQueue.global().async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
        } else if !fromOwner {
            // The session thread runs its jobs before it polls again; any
            // other thread must wake it.
            waker.wake()
        }
    }

    /// Runs every job enqueued so far, and those they enqueue. Session thread only.
    func runPending() {
        while true {
            let jobs = state.withLock { state in
                defer { state.jobs.removeAll(keepingCapacity: true) }
                return state.jobs
            }
            if jobs.isEmpty { return }
            for job in jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }

    /// The session's thread is ending: what is left, and what comes later,
    /// runs on Dispatch's global queue.
    func close() {
        let left = state.withLock { state in
            state.closed = true
            defer { state.jobs.removeAll() }
            return state.jobs
        }
        for job in left { DispatchQueue.global().async { job.runSynchronously(on: self.asUnownedTaskExecutor()) } }
    }
}
