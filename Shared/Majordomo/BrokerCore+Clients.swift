import ZeroMQ

extension BrokerCore {
    mutating func handleClientRequest(from client: Frame, service name: String, body: [Frame], now: Instant) {
        totals.requests += 1
        if name.hasPrefix(MDP.mmiPrefix) {
            answerInternal(client: client, service: name, body: body, now: now)
            return
        }
        // Services are changed in place (`services[name, default:]`, `?.`):
        // a copy taken out and put back would share, and so copy, its whole
        // queue on every request. Profiled: that copy was most of the
        // broker's time under a deep queue.
        let queued = services[name]?.queue.count ?? 0
        if services[name] == nil, services.count >= configuration.serviceLimit {
            refuse(client: client, body: body, .serviceLimit(service: name, limit: configuration.serviceLimit))
            return
        }
        services[name, default: Service()].requests += 1
        let refusal: BrokerRefusal? =
            if draining { .shuttingDown(service: name) }
            else if outstanding[client, default: 0] >= configuration.clientLimit { .clientLimit(service: name, limit: configuration.clientLimit) }
            else if queued >= configuration.queueLimit { .queueFull(service: name, limit: configuration.queueLimit) }
            else { nil }
        if let refusal {
            services[name]?.refused += 1
            refuse(client: client, body: body, refusal)
            return
        }
        let deadline = now + configuration.queueWait
        services[name]?.queue.append(Request(client: client, body: body, received: now, deadline: deadline))
        outstanding[client, default: 0] += 1
        lowerDeadline(to: deadline)
        dispatch(name)
    }

    /// Hands queued requests of a service to its idle workers, least recently used first.
    mutating func dispatch(_ name: String) {
        while let (identity, request) = services[name]?.nextAssignment() {
            workers[identity]?.current = request
            outbox.append([identity, MDP.empty, MDP.workerHeader, MDP.Command.request.frame, request.client, MDP.empty] + request.body)
        }
    }

    /// Sends a worker's reply to the client that asked.
    mutating func deliver(reply body: [Frame], to client: Frame, service name: String, request: Request, now: Instant) {
        outbox.append([client, MDP.empty, MDP.clientHeader, Frame(name)] + body)
        finish(client: client)
        totals.replies += 1
        services[name]?.replies += 1
        services[name]?.latency.record(request.received.duration(to: now))
    }

    /// Answers a request the broker accepted but cannot complete.
    mutating func reject(_ request: Request, of service: String, _ refusal: BrokerRefusal) {
        finish(client: request.client)
        services[service]?.refused += 1
        refuse(client: request.client, body: request.body, refusal)
    }

    mutating func refuse(client: Frame, body: [Frame], _ refusal: BrokerRefusal) {
        totals.refused += 1
        events.append(.refused(client: client, refusal: refusal))
        outbox.append([client, MDP.empty, MDP.clientHeader, Frame(refusal.service)] + replies.refusal(refusal, request: body))
    }

    mutating func finish(client: Frame) {
        guard let count = outstanding[client] else { return }
        outstanding[client] = count > 1 ? count - 1 : nil
    }
}
