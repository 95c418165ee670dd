#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Synchronization
import ZeroMQ

/// One MDP connection of a `MajordomoWorker`: a task on a `SessionThread`,
/// which it shares with other sessions of the process.
final class WorkerSession: Sendable {
    let finished = Completion<Void>()
    /// Replies of async handlers, each with the connection its request came
    /// on and the client address to send it to.
    private let mailbox = Mutex<[(generation: Int, client: Frame, body: [Frame])]>([])
    /// Set while a handler starts on the session's own turn: its reply, if
    /// it comes before the handler first waits, needs no wake-up.
    private let starting = Atomic<Bool>(false)
    /// This session's async handlers running, whichever connection their
    /// requests came on: a session that lost its broker mid-request
    /// registers again only once none runs, so a worker never runs more
    /// handlers at once than its sessions' credit.
    private let handling = Atomic<Int>(0)
    /// Where this session and its async handlers run.
    let thread: SessionThread
    /// This session's number on its thread.
    let id: Int
    /// The broker this session serves.
    let endpoint: String

    init(thread: SessionThread, id: Int, endpoint: String) {
        self.thread = thread
        self.id = id
        self.endpoint = endpoint
    }

    /// Resumes the session wherever it waits (a reply, or stop). Any thread.
    func wake() { thread.kick(id) }

    /// `<pid>.<process>.<connection>`: the broker tells which sessions
    /// belong to one process (`process(inRoutingID:)`), even across hosts
    /// whose pids collide, by the random `<process>` part drawn once per
    /// process; `<connection>` is new for every connection, so a reconnect
    /// never collides with the broker's memory of the old one.
    static func routingID() -> String {
        "\(ProcessInfo.processInfo.processIdentifier).\(processNonce).\(String(UInt32.random(in: .min ... .max), radix: 16))"
    }

    private static let processNonce = String(UInt64.random(in: .min ... .max), radix: 16)

    /// The process id in a routing id made by `routingID()`; nil for others.
    static func pid(inRoutingID identity: String) -> Int32? {
        parts(of: identity).map(\.pid)
    }

    /// What names the process in a routing id made by `routingID()`
    /// (`<pid>.<process>`); nil for others.
    static func process(inRoutingID identity: String) -> Substring? {
        guard let parts = parts(of: identity) else { return nil }
        return identity[..<identity.index(before: parts.connection)]
    }

    private static func parts(of identity: String) -> (pid: Int32, connection: Substring.Index)? {
        let parts = identity.split(separator: ".", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), let pid = Int32(parts[0]), pid > 0, parts.dropFirst().allSatisfy({ UInt64($0, radix: 16) != nil })
        else { return nil }
        return (pid, parts.last!.startIndex)
    }

    private enum End { case reconnectNow, refused, reconnectAfterDelay, stopped, terminated }

    func run(worker: MajordomoWorker, handler: MajordomoWorker.Handling, started: Completion<ZMQError?>) async {
        defer {
            started.complete(nil)  // a no-op once reported; covers stop() before the first connect
            finished.complete(())
        }
        let (configuration, context, logger) = worker.settings
        var generation = 0
        var delay = configuration.reconnectDelay
        var reportedStart = false
        var refusedBefore = false
        while !worker.isStopping {
            await finishHandler(worker: worker)
            if worker.isStopping { return }
            generation += 1
            let link: any BrokerLink
            do {
                link = try connectBrokerLink(to: endpoint, identity: Array(Self.routingID().utf8), context: context) { [endpoint] event in
                    worker.handshake(event, endpoint: endpoint)
                }
                try link.send(MDP.ready(service: Frame(worker.service), brokers: worker.endpoints, credit: configuration.sessionCredit))
            } catch {
                if reportedStart {
                    logger.error("worker session cannot reconnect; it stops", metadata: ["service": "\(worker.service)", "error": "\(error)"])
                } else {
                    started.complete(error as? ZMQError ?? ZMQError(code: -1, operation: "\(error)"))
                }
                return
            }
            if !reportedStart {
                reportedStart = true
                started.complete(nil)
            }
            logger.debug("worker session connecting", metadata: ["service": "\(worker.service)", "endpoint": "\(endpoint)"])
            let end = await serve(link, worker: worker, generation: generation, handler: handler, delay: &delay)
            // Only a session that stops has something to deliver as it
            // closes (DISCONNECT); one that connects again does not wait.
            link.close(lingering: end == .stopped ? .milliseconds(500) : .zero)
            switch end {
            case .reconnectNow:
                refusedBefore = false
            case .refused where !refusedBefore:
                // DISCONNECT before anything else: a broker that is stopping,
                // or one that will not have this worker. Try once at once...
                refusedBefore = true
            case .refused:
                // ...but not again: retrying at once would only spin.
                logger.warning("broker refused the worker again; backing off", metadata: ["service": "\(worker.service)", "after": "\(delay)"])
                await pause(delay, worker: worker)
                delay = min(delay * 2, configuration.reconnectDelayMax)
            case .reconnectAfterDelay:
                refusedBefore = false
                await pause(delay, worker: worker)
                delay = min(delay * 2, configuration.reconnectDelayMax)
            case .stopped, .terminated:
                return
            }
        }
    }

    /// One connection to the broker, from READY until it ends.
    private func serve(
        _ link: any BrokerLink, worker: MajordomoWorker, generation: Int,
        handler: MajordomoWorker.Handling, delay: inout Duration
    ) async -> End {
        let (configuration, _, logger) = worker.settings
        let clock = ContinuousClock()
        let expiry = configuration.heartbeatInterval * configuration.heartbeatLiveness
        var brokerExpiry = clock.now + expiry
        var heartbeatAt = clock.now + configuration.heartbeatInterval
        // Requests of this connection in hand: at most the credit.
        var inHand = 0
        var heardFromBroker = false
        // As in the broker: block on the socket's descriptor only when the
        // last call on it was a receive that found nothing.
        var drained = false
        var lastProblem: PeerProblem?
        do {
            while true {
                if worker.isStopping && inHand == 0 {
                    // Delivered as the link closes, lingering long enough for a
                    // live broker, not so long as to hold up exit when there is none.
                    try link.send(MDP.disconnect, wait: false)
                    logger.debug("worker session stopped", metadata: ["service": "\(worker.service)"])
                    return .stopped
                }
                if drained {
                    // What this turn's replies and heartbeat queued, in one write.
                    link.flush()
                    let (descriptor, events, linkDeadline) = try link.readiness()
                    let deadline = min(heartbeatAt, brokerExpiry, linkDeadline ?? brokerExpiry)
                    link.handle(revents: await thread.park(id, descriptor: descriptor, events: events, until: deadline))
                }
                for problem in link.takeProblems() where problem != lastProblem {
                    // The same one again (each reconnection) is not news.
                    lastProblem = problem
                    logger.warning("connection to the broker failed: \(problem.kind.rawValue)", metadata: ["reason": "\(problem.detail)"])
                }
                try sendReplies(generation: generation, inHand: &inHand, on: link)
                drained = false
                while let frames = try link.receiveIfAny() {
                    brokerExpiry = clock.now + expiry
                    let command = BrokerCommand(frames)
                    if command != .disconnect {
                        heardFromBroker = true
                        delay = configuration.reconnectDelay
                    }
                    switch command {
                    case .request(let from, let body):
                        guard inHand < configuration.sessionCredit else {
                            logger.warning(
                                "broker sent a REQUEST past this session's credit; ignored", metadata: ["credit": "\(configuration.sessionCredit)"])
                            continue
                        }
                        switch handler {
                        case .synchronous(let handle):
                            try link.send(MDP.reply(client: from, body: handle(body)))
                        case .async(let handle):
                            inHand += 1
                            // Starts here and now: a handler that never waits
                            // (a posts.get) is done when this returns, and its
                            // reply goes out at once, without this session
                            // parking and being woken for it. One that waits
                            // resumes on this thread, and its reply wakes the session.
                            starting.store(true, ordering: .relaxed)
                            handling.add(1, ordering: .releasing)
                            Task.immediate(executorPreference: thread) { [self] in
                                let reply = await handle(body)
                                mailbox.withLock { $0.append((generation, from, reply)) }
                                handling.subtract(1, ordering: .releasing)
                                if !starting.load(ordering: .relaxed) { wake() }
                            }
                            starting.store(false, ordering: .relaxed)
                            try sendReplies(generation: generation, inHand: &inHand, on: link)
                        }
                    case .heartbeat:
                        break
                    case .disconnect:
                        logger.info("broker sent DISCONNECT; registering again", metadata: ["service": "\(worker.service)"])
                        return heardFromBroker ? .reconnectNow : .refused
                    case .malformed(let reason):
                        logger.warning("malformed message from broker dropped", metadata: ["reason": "\(reason)"])
                    }
                }
                drained = true
                if clock.now >= brokerExpiry {
                    logger.warning("broker silent; reconnecting", metadata: ["endpoint": "\(endpoint)", "after": "\(delay)"])
                    return .reconnectAfterDelay
                }
                if clock.now >= heartbeatAt {
                    // Never block here: a full queue means the broker is gone,
                    // which the liveness check above handles.
                    try link.send(MDP.heartbeat, wait: false)
                    heartbeatAt = clock.now + configuration.heartbeatInterval
                    drained = false
                }
            }
        } catch let error as ZMQError where error.isTerminated {
            return .terminated
        } catch {
            logger.error("worker socket failed; reconnecting", metadata: ["error": "\(error)"])
            return .reconnectAfterDelay
        }
    }

    /// Sends the replies of this connection's handlers that are done (an
    /// earlier connection's are dropped: its broker gave that request to
    /// another worker).
    private func sendReplies(generation: Int, inHand: inout Int, on link: any BrokerLink) throws {
        for reply in mailbox.withLock({ box in
            defer { box.removeAll() }; return box
        }) where reply.generation == generation {
            try link.send(MDP.reply(client: reply.client, body: reply.body))
            inHand -= 1
        }
    }

    /// Waits for the handlers still running from the connection that just
    /// ended (their replies will be dropped: the broker gave those requests
    /// to other workers), or for `stop()`. Registering meanwhile would let
    /// the broker hand this session new requests while the old still run,
    /// past its credit. Each handler's end wakes the session; the
    /// heartbeat-long naps only bound a missed wake-up.
    private func finishHandler(worker: MajordomoWorker) async {
        guard handling.load(ordering: .acquiring) > 0 else { return }
        let (configuration, _, logger) = worker.settings
        logger.info(
            "requests from the lost connection are still being handled; registering again when they are done",
            metadata: ["service": "\(worker.service)"]
        )
        while !worker.isStopping, handling.load(ordering: .acquiring) > 0 {
            _ = await thread.park(id, descriptor: -1, events: 0, until: .now + configuration.heartbeatInterval)
        }
    }

    /// Sleeps, but wakes early for `stop()` (not for a stale wake-up from a
    /// handler of an earlier connection); handlers still running from an
    /// earlier connection go on meanwhile, on the thread.
    private func pause(_ duration: Duration, worker: MajordomoWorker) async {
        let clock = ContinuousClock()
        let deadline = clock.now + duration
        while !worker.isStopping, clock.now < deadline {
            _ = await thread.park(id, descriptor: -1, events: 0, until: deadline)
        }
    }
}
