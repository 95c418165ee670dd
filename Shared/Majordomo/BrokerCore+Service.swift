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
