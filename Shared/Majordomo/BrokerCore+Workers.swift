import ZeroMQ

extension BrokerCore {
    mutating func handleWorkerCommand(from identity: Frame, _ command: InboundMessage, now: Instant) {
        let expiry = now + configuration.workerExpiry
        let known = workers.index(forKey: identity)
        if let known {
            workers.values[known].expiry = expiry
            workers.values[known].lastHeard = now
        }
        switch command {
        case .ready(let service, let brokers, let credit):
            if known != nil {
                disconnectWorker(identity, reason: "second READY", now: now)
            } else if service.hasPrefix(MDP.mmiPrefix) {
                disconnectWorker(identity, reason: "READY for reserved service \(service)", now: now)
            } else if services[service] == nil, services.count >= configuration.serviceLimit {
                disconnectWorker(identity, reason: "READY for a new service past the limit of \(configuration.serviceLimit) services", now: now)
            } else {
                register(identity, service: service, brokers: brokers, credit: credit, expiry: expiry, now: now)
            }
        case .reply(let address, let body):
            guard let known else {
                // A worker we do not know (the broker restarted, or it was
                // expired): DISCONNECT tells it to register again.
                outbox.append([identity] + MDP.disconnect)
                return
            }
            guard let (service, request, roomAgain) = workers.values[known].takeRequest(answeredFor: address) else {
                disconnectWorker(identity, reason: "REPLY without a matching REQUEST", now: now)
                return
            }
            guard let slot = services.index(forKey: service) else {
                // Not expected: a service is kept while it has workers. The
                // request goes back to the worker, so that forgetting the
                // worker gives it to another.
                workers.values[known].inHand.append(request)
                disconnectWorker(identity, reason: "its service \(service) is gone", now: now)
                return
            }
            // The worker's next request goes out before this reply: with one
            // session per worker, the worker's idle time is the throughput.
            // One that had no room before this reply is idle again.
            if roomAgain { services.values[slot].idle.append(identity) }
            dispatch(at: slot, known: (identity, known))
            if request.answered {
                totals.lateReplies += 1  // its client was answered `timeout` already
                services.values[slot].countLateReply()
            } else {
                deliver(reply: body, to: request.client, at: slot, request: request, now: now)
            }
        case .heartbeat:
            guard let known else {
                outbox.append([identity] + MDP.disconnect)
                return
            }
            // Heard from: a session of a suspect process may take requests again.
            if !suspects.isEmpty, suspects[workers.values[known].process] != nil { dispatch(workers.values[known].service) }
        case .disconnect:
            if let worker = workers[identity] {
                events.append(.workerLeft(identity: identity, service: worker.service))
                remove(identity, now: now)
                dispatch(worker.service)
            }
        case .clientRequest:
            break
        }
    }

    mutating func register(_ identity: Frame, service name: String, brokers: [String] = [], credit: Int = 1, expiry: Instant, now: Instant) {
        let text = Self.readable(identity.bytes)
        workers[identity] = Worker(
            identity: identity, service: name, expiry: expiry, connected: now, lastHeard: now, credit: credit,
            process: WorkerSession.process(inRoutingID: text).map(String.init) ?? text, brokers: brokers)
        let figures = metrics.service(named: name)
        services[name, default: Service(name: name, metrics: figures)].add(worker: identity)
        services[name]?.metrics = figures
        lowerDeadline(to: expiry)
        events.append(.workerRegistered(identity: identity, service: name))
        dispatch(name)
    }

    /// Answers a protocol violation: DISCONNECT, and forget the worker.
    mutating func disconnectWorker(_ identity: Frame, reason: String, now: Instant) {
        events.append(.protocolViolation(identity: identity, reason: reason))
        outbox.append([identity] + MDP.disconnect)
        if let service = workers[identity]?.service {
            remove(identity, now: now)
            dispatch(service)
        }
    }

    /// The socket could not deliver to this peer: if it was a worker, it is
    /// gone, and its request goes to another worker now rather than after
    /// the liveness timeout.
    mutating func peerUnreachable(_ identity: Frame, now: Instant) {
        guard let worker = workers[identity] else { return }
        events.append(.workerUnreachable(identity: identity, service: worker.service))
        removeDead([identity], now: now)
    }

    /// Forgets workers found dead (silent past their liveness, or
    /// unreachable), and makes their processes suspects: a process's
    /// sessions die together, so its other sessions are handed nothing
    /// until one of them is heard from again (or they expire too), and a
    /// request goes to a live process meanwhile. Dispatches their services.
    mutating func removeDead(_ identities: [Frame], now: Instant) {
        var services: Set<String> = []
        for identity in identities {
            guard let worker = workers[identity] else { continue }
            services.insert(worker.service)
            suspects[worker.process] = now
            remove(identity, now: now)
        }
        for service in services { dispatch(service) }
    }

    /// Whether an idle session may be handed a request: its process is not
    /// a suspect, or the session has been heard from since it became one.
    static func usable(_ identity: Frame, workers: [Frame: Worker], suspects: [String: Instant]) -> Bool {
        guard let worker = workers[identity], let since = suspects[worker.process] else { return true }
        return worker.lastHeard > since
    }

    /// Forgets a worker. Each request it had in hand goes back to the front
    /// of its queue (in the order they came), with a fresh queue wait, for
    /// another worker; unless `maxAttempts` processes have died holding it,
    /// or the broker is draining, when the client gets an error instead.
    /// The caller dispatches the service.
    mutating func remove(_ identity: Frame, now: Instant) {
        guard let worker = workers.removeValue(forKey: identity) else { return }
        services[worker.service]?.remove(worker: identity)
        if suspects[worker.process] != nil, !workers.values.contains(where: { $0.process == worker.process }) {
            suspects[worker.process] = nil
        }
        // Returned requests go first, in the order returned (`FairQueue.prepend`).
        for request in worker.inHand where !request.answered { giveBack(request, of: worker, now: now) }
    }

    /// A request a worker held when it was forgotten: queued again, or
    /// answered with why not.
    private mutating func giveBack(_ held: Request, of worker: Worker, now: Instant) {
        var request = held
        if let expires = request.expires, expires <= now {
            reject(request, of: worker.service, timeout(request, service: worker.service, withWorker: true))
        } else if draining {
            reject(request, of: worker.service, .interrupted(service: worker.service))
        } else if !request.failedIn.contains(worker.process), request.failedIn.count + 1 >= configuration.maxAttempts {
            reject(request, of: worker.service, .workersFailed(service: worker.service, attempts: request.failedIn.count + 1))
        } else {
            if !request.failedIn.contains(worker.process) { request.failedIn.append(worker.process) }
            request.deadline = min(now + configuration.queueWait, request.expires ?? now + configuration.queueWait)
            services[worker.service]?.queue.prepend(request)
            totals.requeued += 1
            services[worker.service]?.metrics.requeues.increment()
            lowerDeadline(to: request.deadline)
            events.append(.requestRequeued(service: worker.service))
        }
    }
}

/// A worker's state, changed in place through `workers.values[index]`:
/// reading a part of it there instead (`workers.values[index].service`)
/// copies the whole worker first, its request and frames included.
extension BrokerCore.Worker {
    /// The request a reply to `address` answers, taken out and counted as
    /// handled, with the worker's service, and whether the worker has room
    /// again (it had none before); nil when the worker holds none for that
    /// address. A worker with credit hands back the tagged address its
    /// REQUEST carried (`MDP.tagged`).
    mutating func takeRequest(answeredFor address: Frame) -> (service: String, request: BrokerCore.Request, roomAgain: Bool)? {
        let index: Int?
        if credit == 1 {
            index = inHand.first?.client == address ? 0 : nil
        } else {
            index = inHand.firstIndex { MDP.tag(of: address, client: $0.client) == $0.tag }
        }
        guard let index else { return nil }
        handled += 1
        let request = inHand.remove(at: index)
        return (service, request, inHand.count == credit - 1)
    }

    /// The client address a request goes out with: tagged with the next
    /// tag when the worker takes several at once (`MDP.tagged`).
    mutating func address(for request: inout BrokerCore.Request) -> Frame {
        guard credit > 1 else { return request.client }
        request.tag = nextTag
        nextTag &+= 1
        return MDP.tagged(request.client, request.tag)
    }

    /// Takes a request in hand; returns whether there is room for another.
    mutating func take(_ request: consuming BrokerCore.Request) -> Bool {
        inHand.append(request)
        return inHand.count < credit
    }
}
