import ZeroMQ

/// A service's state, changed only in place through these (see
/// `handleClientRequest`): never taken out of `services` and put back.
extension BrokerCore.Service {
    /// The next request to hand out and the idle worker to take it, if both exist.
    mutating func nextAssignment() -> (Frame, BrokerCore.Request)? {
        guard !queue.isEmpty, let identity = idle.popFirst() else { return nil }
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
        guard queue.contains(where: { $0.deadline <= now }) else { return [] }
        var expired: [BrokerCore.Request] = []
        queue.removeAll { request in
            if request.deadline <= now { expired.append(request) }
            return request.deadline <= now
        }
        return expired
    }
}
