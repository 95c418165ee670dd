import ZeroMQ

extension BrokerCore {
    mutating func handleClientRequest(from client: Frame, service name: String, body: [Frame], now: Instant) {
        totals.requests += 1
        if name.hasPrefix(MDP.mmiPrefix) {
            answerInternal(client: client, service: name, body: body, now: now)
            return
        }
        // One lookup per dictionary, then changes in place through the slot:
        // a service taken out and put back would share, and so copy, its
        // whole queue on every request (profiled: that copy was most of the
        // broker's time under a deep queue), and each lookup hashes again.
        let slot: ServiceSlot
        if let found = services.index(forKey: name) {
            slot = found
        } else if services.count >= configuration.serviceLimit {
            refuse(client: client, body: body, .serviceLimit(service: name, limit: configuration.serviceLimit))
            return
        } else {
            services[name] = Service(name: name, metrics: metrics.unnamed)
            slot = services.index(forKey: name)!
        }
        let held = outstanding.index(forKey: client)
        let queueLength = services.values[slot].countRequest()
        let refusal: BrokerRefusal? =
            if draining { .shuttingDown(service: name) } else if let held, outstanding.values[held] >= configuration.clientLimit {
                .clientLimit(service: name, limit: configuration.clientLimit)
            } else if queueLength >= configuration.queueLimit { .queueFull(service: name, limit: configuration.queueLimit) } else { nil }
        if let refusal {
            services.values[slot].refused += 1
            refuse(client: client, body: body, refusal)
            return
        }
        var deadline = now + configuration.queueWait
        var expires: Instant?
        if let budget = replies.budget(of: body) {
            guard budget > .zero else {
                services.values[slot].refused += 1
                refuse(client: client, body: body, .timeout(service: name, budget: budget, withWorker: false))
                return
            }
            expires = now + budget
            deadline = min(deadline, now + budget)
        }
        var request = Request(client: client, body: body, received: now, deadline: deadline, expires: expires)
        if let tracing, let (span, traced) = tracing.begin(service: name, body: body) { (request.span, request.body) = (span, traced) }
        services.values[slot].queue.append(request)
        if let held { outstanding.values[held] += 1 } else { outstanding[client] = 1 }
        lowerDeadline(to: deadline)
        dispatch(at: slot)
    }

    /// Hands queued requests of a service to its idle workers, least recently used first.
    mutating func dispatch(_ name: String) {
        if let slot = services.index(forKey: name) { dispatch(at: slot) }
    }

    /// `known`: a worker whose place in `workers` is in hand (the one that
    /// just replied, and under load the one to take the next request), so
    /// it is not looked up again.
    mutating func dispatch(at slot: ServiceSlot, known: (identity: Frame, index: Dictionary<Frame, Worker>.Index)? = nil) {
        // Suspects are rare (a worker process just died): the usual path
        // takes the least recently used idle worker without a look.
        let filter: ((Frame) -> Bool)? = suspects.isEmpty ? nil : { [workers, suspects] in Self.usable($0, workers: workers, suspects: suspects) }
        services.values[slot].endRun(unlessIn: turn)
        while let (identity, assigned) = services.values[slot].nextAssignment(usable: filter) {
            var request = assigned
            // Spent since the last tick: answered, never handed to a worker.
            if let expires = request.expires, expires <= now {
                services.values[slot].idle.prepend(identity)
                let name = services.keys[slot]
                reject(request, of: name, timeout(request, service: name))
                continue
            }
            let worker = if let known, known.identity == identity { known.index } else { workers.index(forKey: identity) }
            var address = request.client
            if let worker { address = workers.values[worker].address(for: &request) }
            var message: [Frame] = []
            message.reserveCapacity(6 + request.body.count)
            message.append(identity)
            message.append(MDP.empty)
            message.append(MDP.workerHeader)
            message.append(MDP.Command.request.frame)
            message.append(address)
            message.append(MDP.empty)
            let waited = request.received.duration(to: now)
            services.values[slot].countDispatch(after: waited)
            request.span?.dispatched(after: waited)
            if let expires = request.expires {
                message.append(contentsOf: replies.body(request.body, waited: waited, remaining: now.duration(to: expires)))
            } else {
                message.append(contentsOf: request.body)
            }
            outbox.append(message)
            guard let worker else { continue }
            let hasRoom = workers.values[worker].take(consume request)
            services.values[slot].handed(to: identity, hasRoom: hasRoom, turn: turn)
        }
    }

    /// Sends a worker's reply to the client that asked.
    mutating func deliver(reply body: [Frame], to client: Frame, at slot: ServiceSlot, request: Request, now: Instant) {
        var message: [Frame] = []
        message.reserveCapacity(4 + body.count)
        message.append(client)
        message.append(MDP.empty)
        message.append(MDP.clientHeader)
        message.append(services.values[slot].countReply(after: request.received.duration(to: now)))
        request.span?.finished("answered")
        message.append(contentsOf: body)
        outbox.append(message)
        finish(client: client)
        totals.replies += 1
    }

    /// The refusal of a request whose budget ran out.
    func timeout(_ request: Request, service: String, withWorker: Bool = false) -> BrokerRefusal {
        .timeout(service: service, budget: request.expires.map { request.received.duration(to: $0) } ?? .zero, withWorker: withWorker)
    }

    /// Answers a request the broker accepted but cannot complete.
    mutating func reject(_ request: Request, of service: String, _ refusal: BrokerRefusal) {
        request.span?.finished(ServiceMetrics.outcome(of: refusal).rawValue)
        finish(client: request.client)
        services[service]?.refused += 1
        refuse(client: request.client, body: request.body, refusal)
    }

    mutating func refuse(client: Frame, body: [Frame], _ refusal: BrokerRefusal) {
        totals.refused += 1
        (services[refusal.service]?.metrics ?? metrics.unnamed).count(ServiceMetrics.outcome(of: refusal))
        events.append(.refused(client: client, refusal: refusal))
        outbox.append([client, MDP.empty, MDP.clientHeader, Frame(refusal.service)] + replies.refusal(refusal, request: body))
    }

    mutating func finish(client: Frame) {
        guard let held = outstanding.index(forKey: client) else { return }
        if outstanding.values[held] > 1 { outstanding.values[held] -= 1 } else { outstanding.remove(at: held) }
    }
}
