import Logging
import ZeroMQ

extension ClientEngine {
    func run() {
        let clock = ContinuousClock()
        guard var link = openLink(to: currentIndex, now: clock.now) else {
            failEverything()
            return
        }
        var nextDeadline: Instant? = nil
        // No connection has been up yet: since when requests have waited for
        // one. A broker that is there but slow to finish its handshake is not
        // "unreachable"; one whose handshake failed is.
        var everLive = false
        var unconnectedSince: Instant?
        var poller = Poller()
        while true {
            if !everLive, configuration.firstConnectionWait != nil, unconnectedSince == nil, state.withLock({ !$0.pending.isEmpty }) {
                unconnectedSince = clock.now
            }
            let unreachableBy = unconnectedSince.flatMap { since in configuration.firstConnectionWait.map { since + $0 } }
            poller.removeAll()
            let linkWake = link.transport.register(in: &poller)
            let wakerIndex = poller.addReadable(fileDescriptor: waker.fileDescriptor)
            // With several brokers, a connection not up by then makes way for
            // the next, when requests are waiting on it.
            let connectBy =
                failsOver && !link.live && state.withLock({ !$0.pending.isEmpty }) ? link.opened + configuration.connectWait : nil
            let wake = Self.earliest(Self.earliest(nextDeadline, connectBy), Self.earliest(unreachableBy, linkWake))
            do {
                try poller.poll(timeout: wake.map { clock.now.duration(to: $0) })
                if poller.isReadable(wakerIndex) { waker.drain() }
                if state.withLock({ $0.closed }) { break }
                let events = link.transport.polled(poller)
                var moveOn = watch(&link, events)
                for problem in link.transport.takeProblems() {
                    logger.info("\(problem)", metadata: ["endpoint": "\(endpoints[link.index])"])
                }
                if let sent = try sendUnsent(on: link.transport, now: clock.now) {
                    nextDeadline = min(nextDeadline ?? sent, sent)
                }
                while let frames = try link.transport.receiveIfAny() {
                    if deliver(frames) { moveOn = true }
                }
                var now = clock.now
                everLive = everLive || link.live
                if everLive { unconnectedSince = nil }
                if let unreachableBy, !everLive, now >= unreachableBy, !link.handshaking || handshakes.failure != nil {
                    failPending(with: .unreachable(endpoints: endpoints, waited: configuration.firstConnectionWait ?? .zero))
                    unconnectedSince = nil
                }
                if let connectBy, now >= connectBy, !link.live, state.withLock({ !$0.pending.isEmpty }) {
                    logger.warning(
                        "no connection to the gateway within \(configuration.connectWait); trying the next",
                        metadata: ["endpoint": "\(endpoints[link.index])"])
                    moveOn = true
                }
                if moveOn {
                    link.close()
                    let next = (link.index + 1) % endpoints.count
                    guard let opened = openLink(to: next, now: now) else { break }
                    link = opened
                    if failsOver { logger.info("using the next gateway", metadata: ["endpoint": "\(endpoints[next])"]) }
                    if let sent = try resendAll(on: link.transport, now: now) { nextDeadline = min(nextDeadline ?? sent, sent) }
                }
                now = clock.now
                if let deadline = nextDeadline, now >= deadline {
                    let (retry, next) = expire(now: now)
                    nextDeadline = next
                    if retry {
                        link.close()
                        guard let opened = openLink(to: link.index, now: now) else { break }
                        link = opened
                        if let sent = try resendAll(on: link.transport, now: now) { nextDeadline = min(nextDeadline ?? sent, sent) }
                    }
                }
            } catch let error as ZMQError where error.isTerminated {
                break
            } catch {
                logger.error("client socket failed", metadata: ["error": "\(error)"])
                break
            }
        }
        link.close()
        failEverything()
    }

    /// The earlier of two instants, either of which may be none (without
    /// an array: this is asked at every wait).
    private static func earliest(_ a: Instant?, _ b: Instant?) -> Instant? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }

    /// One connection to one broker, and what is known of it.
    struct Link {
        /// The connection, with its events: to tell a dead broker, and
        /// "refused" from "no answer".
        let transport: any ClientLink
        /// The broker, by its place in `endpoints`.
        let index: Int
        let opened: Instant
        /// Its handshake is done, and it has not disconnected since.
        var live = false
        /// Connected, and no handshake outcome yet.
        var handshaking = false

        func close() { transport.close() }
    }

    private func openLink(to index: Int, now: Instant) -> Link? {
        let endpoint = endpoints[index]
        do {
            let heartbeat = StreamDealer.Heartbeat(interval: configuration.heartbeatInterval, timeout: configuration.heartbeatTimeout)
            let transport = try connectClientLink(to: endpoint, context: context, heartbeat: heartbeat)
            current.store(index, ordering: .relaxed)
            return Link(transport: transport, index: index, opened: now)
        } catch {
            logger.error("client cannot open its socket; failing requests", metadata: ["endpoint": "\(endpoint)", "error": "\(error)"])
            return nil
        }
    }

    /// Reads the link's connection events; returns whether the broker is
    /// now known dead: its connection closed, or its heartbeats went
    /// unanswered (the requests in flight then go to the next broker, or
    /// to the same endpoint again on a new connection, since a restarted
    /// broker knows nothing of them); with several brokers, also a
    /// handshake that failed.
    private func watch(_ link: inout Link, _ events: [HandshakeWatch.Monitored]) -> Bool {
        var dead = false
        for event in events {
            switch event {
            case .connected:
                link.handshaking = true
                connectedOnce.store(true, ordering: .relaxed)
            case .outcome(.succeeded):
                (link.live, link.handshaking) = (true, false)
                handshakes.record(.succeeded)
            case .outcome(let failure):
                link.handshaking = false
                handshakes.record(failure)
                dead = dead || failsOver
            case .disconnected:
                if link.handshaking {
                    handshakes.record(.closedDuringHandshake)
                    dead = dead || failsOver
                }
                link.handshaking = false
                if link.live {
                    logger.warning(
                        "the gateway's connection closed or went silent; sending requests in flight again",
                        metadata: ["endpoint": "\(endpoints[link.index])"])
                    dead = true
                }
                link.live = false
            }
        }
        return dead
    }

    /// Sends requests not yet sent on this link; returns the earliest new
    /// deadline. A request sent for the first time, or again after its
    /// deadline passed, starts an attempt (a new deadline); one moved from
    /// another broker keeps its deadline, with its budget cut to what is
    /// left (`Configuration.rebudget`).
    private func sendUnsent(on link: any ClientLink, now: Instant) throws -> Instant? {
        let batch = state.withLock { state -> [(Frame, [Frame], Instant)] in
            defer { state.unsent.removeAll(keepingCapacity: true) }
            return state.unsent.compactMap { key in
                guard let request = state.pending[key] else { return nil }
                if let deadline = request.deadline {
                    let body = configuration.rebudget.map { $0(request.body, now.duration(to: deadline)) } ?? request.body
                    return (request.service, body, deadline)
                }
                let deadline = now + request.timeout
                state.pending[key]!.attempts += 1
                state.pending[key]!.deadline = deadline
                return (request.service, request.body, deadline)
            }
        }
        // Never a blocking send (ClientLink). A message that cannot be
        // queued now is lost like one lost on the way: its deadline
        // retries it, or fails it with a timeout the caller can explain.
        for (service, body, _) in batch where try !link.send(MDP.clientRequest(service: service, body: body)) {
            logger.debug("no connection to queue a request on; it will time out or be retried", metadata: ["endpoint": "\(endpoints[currentIndex])"])
        }
        // Requests that came together go out in one write.
        if !batch.isEmpty { link.flush() }
        return batch.map(\.2).min()
    }

    /// Sends every pending request again on a new link: after a timeout
    /// (those whose deadline passed start a new attempt), or on the next
    /// broker (the rest keep their deadlines).
    private func resendAll(on link: any ClientLink, now: Instant) throws -> Instant? {
        state.withLock { state in
            state.unsent = state.pending.keys.sorted()
            for key in state.unsent {
                if let deadline = state.pending[key]!.deadline, deadline <= now { state.pending[key]!.deadline = nil }
            }
        }
        return try sendUnsent(on: link, now: now)
    }

    /// Hands a reply to its request; returns true instead when the reply
    /// says that its broker is going away and the request should go to the
    /// next one (several brokers, and not every one has said so yet).
    private func deliver(_ frames: [Frame]) -> Bool {
        guard frames.count >= 3, frames[0].isEmpty, frames[1] == MDP.clientHeader else {
            logger.warning("malformed reply dropped", metadata: ["frames": "\(frames.count)"])
            return false
        }
        let service = frames[2]
        let body = Array(frames[3...])
        let id = correlator(body)
        let leaving = failsOver && (configuration.isLeaving?(body) ?? false)
        let request = state.withLock { state -> Pending? in
            guard let key = Self.key(answeredBy: id, service: service, in: state) else { return nil }
            if leaving, state.pending[key]!.bounces < endpoints.count - 1 {
                state.pending[key]!.bounces += 1
                return nil
            }
            return state.remove(key)
        }
        guard let request else { return leaving }
        request.continuation.resume(returning: body)
        return false
    }

    /// The request a reply answers: by its id; a reply without one (an
    /// 8/MMI answer, or an error about an unreadable request) answers the
    /// oldest request sent to that service, preferring one sent without an
    /// id. A reply to a request already answered or given up on has none.
    private static func key(answeredBy id: String?, service: Frame, in state: State) -> UInt64? {
        if let id { return state.byCorrelation[id] }
        let candidates = state.pending.filter { $0.value.service == service && $0.value.deadline != nil }
        return candidates.filter { $0.value.correlationID == nil }.keys.min() ?? candidates.keys.min()
    }

    /// Fails requests out of attempts; says whether others need a retry and
    /// returns the earliest deadline still pending.
    private func expire(now: Instant) -> (retry: Bool, next: Instant?) {
        var failed: [(Pending, Int)] = []
        let outcome = state.withLock { state -> (Bool, Instant?) in
            var retry = false
            var next: Instant? = nil
            for (key, request) in state.pending {
                guard let deadline = request.deadline else { continue }
                if deadline > now {
                    next = min(next ?? deadline, deadline)
                } else if request.attempts > configuration.retries {
                    failed.append((state.remove(key)!, request.attempts))
                } else {
                    retry = true
                }
            }
            return (retry, next)
        }
        for (request, attempts) in failed {
            request.continuation.resume(
                throwing: MajordomoClientError.timeout(
                    service: request.serviceName, endpoint: endpoints[currentIndex], attempts: attempts, each: request.timeout))
        }
        if outcome.0 {
            logger.info("no reply in time; retrying on a new socket", metadata: ["endpoint": "\(endpoints[currentIndex])"])
        }
        return outcome
    }

    /// Every request waiting now fails with `error`; with `closing`, the
    /// client takes no more.
    private func failPending(with error: MajordomoClientError, closing: Bool = false) {
        let failed = state.withLock { state -> [Pending] in
            if closing { state.closed = true }
            defer { state.pending.removeAll(); state.byCorrelation.removeAll(); state.unsent.removeAll() }
            return Array(state.pending.values)
        }
        for request in failed { request.continuation.resume(throwing: error) }
    }

    /// The end: every request still waiting fails with `.closed`.
    private func failEverything() { failPending(with: .closed, closing: true) }
}
