import Dispatch
import Logging
import Synchronization
import SystemSupport
import ZeroMQ
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// One thread that runs several worker sessions and their request handlers.
///
/// Each session is a task on this executor. Where it used to block on its
/// own socket, it parks here (`park`), and the thread waits in one poll(2)
/// for all its parked sessions' sockets. Under load one wake-up then serves
/// every session whose request came in meanwhile: with a thread per
/// session, half a worker's CPU was the kernel switching to a session that
/// had been asleep. A handler that finishes without waiting runs start to
/// end on this thread between its request and its reply; one that waits
/// resumes here when its job is enqueued, which wakes the poll.
///
/// A synchronous handler holds up the other sessions of its thread while
/// it runs, as it holds up its own heartbeats: it must be short.
///
/// Once the thread has ended, jobs still arriving (handlers that outlived
/// their session) run on Dispatch's global queue, so no task is stranded.
final class SessionThread: TaskExecutor, Sendable {
    private struct State {
        var jobs: [UnownedJob] = []
        var closed = false
        /// The thread, once it has called `serve`.
        var owner: pthread_t?
        /// Sessions to resume at once (a reply is ready, or stop). A kick
        /// that comes while its session runs waits for it to park, so it
        /// is never missed; the poll loop drops one whose session has ended.
        var kicked: Set<Int> = []

        /// Whether the calling thread is this executor's.
        var isOwnerCalling: Bool { owner.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    private struct Parked {
        var descriptor: Int32
        var events: Int16
        var deadline: ContinuousClock.Instant
        /// Resumed exactly once, by whoever takes it out of `parked`. Not a
        /// checked one: that allocated an object on every park, that is
        /// for every request.
        var continuation: UnsafeContinuation<Int16, Never>
    }

    private let state = Mutex(State())
    /// Parked sessions by id; only the thread touches them.
    private let parked = Mutex<[Int: Parked]>([:])
    private let waker = Waker()
    private let running = Atomic<Int>(0)
    private let pollFailures = LogLimiter(interval: .seconds(5))

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let (closed, fromOwner) = state.withLock { state in
            if !state.closed { state.jobs.append(job) }
            return (state.closed, state.isOwnerCalling)
        }
        if closed {
            DispatchQueue.global().async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
        } else if !fromOwner {
            // The thread runs its jobs before it polls again; any other
            // thread must wake it.
            waker.wake()
        }
    }

    /// Resumes session `id` if it is parked, or as soon as it parks. Any
    /// thread; on this one (a handler's reply) the session goes on within
    /// the same run of jobs, without a turn of the poll loop.
    func kick(_ id: Int) {
        let onThread = state.withLock { $0.isOwnerCalling }
        if onThread, let session = parked.withLock({ $0.removeValue(forKey: id) }) {
            session.continuation.resume(returning: 0)
            return
        }
        state.withLock { _ = $0.kicked.insert(id) }
        if !onThread { waker.wake() }
    }

    /// Waits until `descriptor` reports one of `events` (-1: none), until
    /// `deadline`, or until the session is kicked; returns what poll(2)
    /// reported for the descriptor (0 for the other two). Session tasks only.
    func park(_ id: Int, descriptor: Int32, events: Int16, until deadline: ContinuousClock.Instant) async -> Int16 {
        await withUnsafeContinuation { continuation in
            if state.withLock({ $0.kicked.remove(id) }) != nil {
                continuation.resume(returning: 0)
            } else {
                parked.withLock { $0[id] = Parked(descriptor: descriptor, events: events, deadline: deadline, continuation: continuation) }
            }
        }
    }

    /// Runs `sessions` (each made into a task here) until every one has
    /// returned. The calling thread becomes this executor's thread.
    @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
    func serve(_ sessions: [@Sendable () async -> Void], logger: Logger) {
        state.withLock { $0.owner = pthread_self() }
        running.store(sessions.count, ordering: .relaxed)
        for session in sessions {
            Task(executorPreference: self) { [self] in
                await session()
                running.subtract(1, ordering: .relaxed)
            }
        }
        let clock = ContinuousClock()
        var items: [pollfd] = []
        var ids: [Int] = []
        while true {
            runPending()
            if running.load(ordering: .relaxed) == 0 { break }
            let now = clock.now
            let kicked = state.withLock { state -> Set<Int> in
                defer { state.kicked.removeAll() }
                return state.kicked
            }
            items.removeAll(keepingCapacity: true)
            ids.removeAll(keepingCapacity: true)
            items.append(pollfd(fd: waker.fileDescriptor, events: Int16(POLLIN), revents: 0))
            // One pass: the sessions to resume now (kicked from another
            // thread, or due), else what to poll and for how long. A kicked
            // session that is not parked has ended.
            var due: [Int] = []
            let earliest = parked.withLock { parked -> ContinuousClock.Instant? in
                var earliest: ContinuousClock.Instant?
                for (id, session) in parked {
                    if session.deadline <= now || kicked.contains(id) {
                        due.append(id)
                        continue
                    }
                    earliest = min(earliest ?? session.deadline, session.deadline)
                    guard session.descriptor >= 0 else { continue }
                    items.append(pollfd(fd: session.descriptor, events: session.events, revents: 0))
                    ids.append(id)
                }
                return earliest
            }
            if !due.isEmpty {
                let continuations = parked.withLock { parked in due.map { parked.removeValue(forKey: $0)!.continuation } }
                for continuation in continuations { continuation.resume(returning: 0) }
                continue
            }
            // No session parked: only a job from another thread can come.
            let milliseconds = earliest.map { Int32(Poller.milliseconds(rounding: now.duration(to: $0))) } ?? -1
            while poll(&items, nfds_t(items.count), milliseconds) == -1 {
                guard errno != EINTR else { continue }
                // Said, and tried again shortly: meanwhile the sessions' own
                // deadlines still come (their heartbeats end a link whose
                // broker goes unheard, as for a lost socket).
                let reason = String(cString: strerror(errno))
                if pollFailures.admit(reason).log {
                    logger.error(
                        "worker thread cannot wait for its sessions' sockets; retrying",
                        metadata: ["error": "poll: \(reason)", "descriptors": "\(items.count)"])
                }
                sleepThread(seconds: 0.01)
                break
            }
            if items[0].revents != 0 { waker.drain() }
            let ready = parked.withLock { parked in
                ids.indices.compactMap { index -> (UnsafeContinuation<Int16, Never>, Int16)? in
                    let revents = items[index + 1].revents
                    guard revents != 0, let session = parked.removeValue(forKey: ids[index]) else { return nil }
                    return (session.continuation, revents)
                }
            }
            for (continuation, revents) in ready { continuation.resume(returning: revents) }
        }
        close()
    }

    /// Runs every job enqueued so far, and those they enqueue. The thread only.
    /// The queue is swapped with an emptied one rather than copied: a
    /// copy left the queue's buffer shared, and emptying it made a new one,
    /// twice for every request.
    private func runPending() {
        var jobs: [UnownedJob] = []
        while true {
            state.withLock { swap(&jobs, &$0.jobs) }
            if jobs.isEmpty { return }
            for job in jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
            jobs.removeAll(keepingCapacity: true)
        }
    }

    /// The thread is ending: what is left, and what comes later, runs on
    /// Dispatch's global queue.
    private func close() {
        let left = state.withLock { state in
            state.closed = true
            defer { state.jobs.removeAll() }
            return state.jobs
        }
        for job in left { DispatchQueue.global().async { job.runSynchronously(on: self.asUnownedTaskExecutor()) } }
    }
}
