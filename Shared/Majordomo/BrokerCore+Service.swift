import Metrics
import ZeroMQ

/// A service's state, changed only in place through these (see
/// `handleClientRequest`): never taken out of `services` and put back, and
/// on the hot paths not read through `services.values[slot]` either: that
/// getter copies the whole service, queue and all, to read one part.
extension BrokerCore.Service {
    /// Counts a request; returns how many wait already.
    mutating func countRequest() -> Int {
        requests += 1
        return queue.count
    }

    /// Counts a reply and how long its request took; returns the name frame
    /// the reply carries.
    mutating func countReply(after latency: Duration) -> Frame {
        replies += 1
        self.latency.record(latency)
        metrics.answered.increment()
        metrics.duration.record(duration: latency)
        return nameFrame
    }

    /// Counts how long a request waited before a worker was handed it.
    mutating func countDispatch(after wait: Duration) {
        metrics.queueWait.record(duration: wait)
    }

    /// Counts a worker's reply dropped because its client had been answered `timeout`.
    mutating func countLateReply() {
        metrics.lateReplies.increment()
    }

    /// The next request to hand out and the idle worker to take it, if both
    /// exist: the least recently used idle worker that `usable` allows
    /// (nil: any).
    mutating func nextAssignment(usable: ((Frame) -> Bool)? = nil) -> (Frame, BrokerCore.Request)? {
        guard !queue.isEmpty else { return nil }
        let identity: Frame
        if let usable {
            guard let index = idle.firstIndex(where: usable) else { return nil }
            identity = idle.remove(at: index)
        } else {
            guard let first = idle.popFirst() else { return nil }
            identity = first
        }
        var request = queue.removeFirst()
        request.attempts += 1
        return (identity, request)
    }

    /// A request was handed to `identity`, in `turn`. With room for more it
    /// stays idle: first in line while its run lasts (up to `runLength`
    /// requests of one turn), then at the back, so sessions with room take
    /// turns, a run each.
    mutating func handed(to identity: Frame, hasRoom: Bool, turn: UInt64) {
        var count = 1
        if let run, run.holder == identity, run.turn == turn { count = run.count + 1 }
        guard hasRoom else {
            if run?.holder == identity { run = nil }
            return
        }
        if count < BrokerCore.runLength {
            run = (identity, count, turn)
            idle.prepend(identity)
        } else {
            run = nil
            idle.append(identity)
        }
    }

    /// A run begun in an earlier turn ends: its holder goes to the back.
    /// One request at a time, each in a turn of its own, so goes to each
    /// session in turn.
    mutating func endRun(unlessIn turn: UInt64) {
        guard let run, run.turn != turn else { return }
        self.run = nil
        if idle.first == run.holder { idle.append(idle.removeFirst()) }
    }

    mutating func add(worker identity: Frame) {
        workers += 1
        hadWorkers = true
        idle.append(identity)
    }

    mutating func remove(worker identity: Frame) {
        workers -= 1
        if let index = idle.firstIndex(of: identity) { idle.remove(at: index) }
    }

    /// Takes out the requests that waited past their deadline.
    mutating func removeExpired(now: ContinuousClock.Instant) -> [BrokerCore.Request] {
        queue.removeAll { $0.deadline <= now }
    }
}
