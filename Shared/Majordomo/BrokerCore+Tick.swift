import ZeroMQ

extension BrokerCore {
    /// Time-driven work: expire silent workers, answer requests that waited
    /// too long, send heartbeats, and forget services nobody uses.
    mutating func tick(now: Instant) {
        self.now = now
        // Every expired worker goes before any request is handed out again,
        // so none is handed to a worker that is about to be expired too.
        let expired = workers.values.filter { $0.expiry <= now }
        for worker in expired {
            totals.workersExpired += 1
            services[worker.service]?.metrics.expiries.increment()
            events.append(.workerExpired(identity: worker.identity, service: worker.service))
        }
        if !expired.isEmpty { removeDead(expired.map(\.identity), now: now) }
        answerSpentRequestsWithWorkers(now: now)
        for name in Array(services.keys) {
            expireQueuedRequests(of: name, now: now)
            forgetIfUnused(name, now: now)
        }
        if now >= nextHeartbeat {
            // Busy workers too: a long request must not make either side look dead.
            for identity in workers.keys { outbox.append([identity] + MDP.heartbeat) }
            nextHeartbeat = now + configuration.heartbeatInterval
        }
        recomputeDeadline(now: now)
    }

    /// Forgets a service nobody asked for that has no worker (at once), and
    /// one that had workers after a queue wait with none and nothing
    /// waiting: throwaway names cannot grow the broker without bound.
    private mutating func forgetIfUnused(_ name: String, now: Instant) {
        guard let service = services[name] else { return }
        guard service.workers == 0, service.queue.isEmpty else {
            if service.emptySince != nil { services[name]?.emptySince = nil }
            return
        }
        guard service.hadWorkers else { services[name] = nil; return }
        if let since = service.emptySince {
            if since.duration(to: now) >= configuration.queueWait { services[name] = nil }
        } else {
            services[name]?.emptySince = now
        }
    }

    private mutating func expireQueuedRequests(of name: String, now: Instant) {
        guard let expired = services[name]?.removeExpired(now: now), !expired.isEmpty else { return }
        // With no worker at all, "no worker" says why better than "timeout":
        // a client that gives a short budget still learns what to start.
        let hasWorkers = (services[name]?.workers ?? 0) > 0
        for request in expired {
            if let expires = request.expires, expires <= now, hasWorkers {
                reject(request, of: name, timeout(request, service: name))
            } else {
                reject(request, of: name, .serviceUnavailable(service: name, waited: request.received.duration(to: now)))
            }
        }
    }

    /// A client whose budget ran out while a worker had its request is
    /// answered `timeout` now; the request keeps its place in the worker's
    /// hands until it replies, and that late reply is dropped.
    private mutating func answerSpentRequestsWithWorkers(now: Instant) {
        var index = workers.startIndex
        while index != workers.endIndex {
            for slot in workers.values[index].inHand.indices {
                let request = workers.values[index].inHand[slot]
                guard !request.answered, let expires = request.expires, expires <= now else { continue }
                workers.values[index].inHand[slot].answered = true
                let service = workers.values[index].service
                finish(client: request.client)
                services[service]?.refused += 1
                totals.timedOutWithWorker += 1
                request.span?.finished("timeout")
                refuse(client: request.client, body: request.body, timeout(request, service: service, withWorker: true))
            }
            index = workers.index(after: index)
        }
    }

    /// Sends DISCONNECT to every worker: the broker is going away. A request
    /// still with a worker (the shutdown grace ran out) is answered
    /// "interrupted": it may have been carried out, and the answer must
    /// not say it was not. Never left without an answer.
    mutating func disconnectAll() {
        for worker in workers.values {
            for request in worker.inHand where !request.answered {
                reject(request, of: worker.service, .interrupted(service: worker.service))
            }
            outbox.append([worker.identity] + MDP.disconnect)
        }
        workers.removeAll()
    }
}
