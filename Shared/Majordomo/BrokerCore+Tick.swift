import ZeroMQ

extension BrokerCore {
    /// Time-driven work: expire silent workers, answer requests that waited
    /// too long, send heartbeats, and forget services nobody uses.
    mutating func tick(now: Instant) {
        for (identity, worker) in workers where worker.expiry <= now {
            totals.workersExpired += 1
            events.append(.workerExpired(identity: identity, service: worker.service))
            remove(identity, now: now)
        }
        for name in Array(services.keys) {
            expireQueuedRequests(of: name, now: now)
            if let service = services[name], service.workers == 0, service.queue.isEmpty {
                services[name] = nil
            }
        }
        if now >= nextHeartbeat {
            // Busy workers too: a long request must not make either side look dead.
            for identity in workers.keys { outbox.append([identity] + MDP.heartbeat) }
            nextHeartbeat = now + configuration.heartbeatInterval
        }
        recomputeDeadline()
    }

    private mutating func expireQueuedRequests(of name: String, now: Instant) {
        guard var service = services[name], service.queue.contains(where: { $0.deadline <= now }) else { return }
        var expired: [Request] = []
        service.queue.removeAll { request in
            if request.deadline <= now { expired.append(request) }
            return request.deadline <= now
        }
        service.refused += expired.count
        services[name] = service
        for request in expired {
            finish(client: request.client)
            let waited = request.received.duration(to: now)
            refuse(client: request.client, body: request.body, .serviceUnavailable(service: name, waited: waited))
        }
    }

    /// Sends DISCONNECT to every worker: the broker is going away.
    mutating func disconnectAll() {
        for identity in workers.keys { outbox.append([identity] + MDP.disconnect) }
        workers.removeAll()
    }
}
