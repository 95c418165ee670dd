import Logging
import ZeroMQ

extension ClientEngine {
    func run() {
        let clock = ContinuousClock()
        var socket: Socket?
        do {
            socket = try makeSocket()
        } catch {
            logger.error("client cannot open its socket; failing requests", metadata: ["endpoint": "\(endpoint)", "error": "\(error)"])
        }
        var nextDeadline: Instant? = nil
        while let current = socket {
            var poller = Poller()
            let socketIndex = poller.addReadable(current)
            let wakerIndex = poller.addReadable(fileDescriptor: waker.fileDescriptor)
            do {
                try poller.poll(timeout: nextDeadline.map { clock.now.duration(to: $0) })
                if poller.isReadable(wakerIndex) { waker.drain() }
                if state.withLock({ $0.closed }) { break }
                if let sent = try sendUnsent(on: current, now: clock.now) {
                    nextDeadline = min(nextDeadline ?? sent, sent)
                }
                if poller.isReadable(socketIndex) {
                    while let frames = try current.receive(wait: false) { deliver(frames) }
                }
                if let deadline = nextDeadline, clock.now >= deadline {
                    let (retry, next) = expire(now: clock.now)
                    nextDeadline = next
                    if retry {
                        current.close()
                        socket = try makeSocket()
                        if let sent = try resendAll(on: socket!, now: clock.now) { nextDeadline = sent }
                    }
                }
            } catch let error as ZMQError where error.isTerminated {
                break
            } catch {
                logger.error("client socket failed", metadata: ["error": "\(error)"])
                break
            }
        }
        socket?.close()
        let abandoned = state.withLock { state -> [Pending] in
            state.closed = true
            defer { state.pending.removeAll(); state.byCorrelation.removeAll(); state.unsent.removeAll() }
            return Array(state.pending.values)
        }
        for request in abandoned { request.continuation.resume(throwing: MajordomoClientError.closed) }
    }

    private func makeSocket() throws -> Socket {
        let socket = try Socket(context, .dealer)
        // The broker bounds what one client may have outstanding, so no
        // high-water mark is needed here to bound memory.
        try socket.set(.sendHighWaterMark, 0)
        try socket.set(.receiveHighWaterMark, 0)
        if Security.needsCurve(endpoint, curveOnIPC: context.security.curveOnIPC) {
            try HandshakeWatch.watch(socket) { [handshakes] event in handshakes.record(event) }
        }
        try socket.connect(endpoint)
        return socket
    }

    /// Sends requests callers added since the last pass; returns the earliest new deadline.
    private func sendUnsent(on socket: Socket, now: Instant) throws -> Instant? {
        let batch = state.withLock { state -> [(Frame, [Frame], Instant)] in
            defer { state.unsent.removeAll(keepingCapacity: true) }
            return state.unsent.compactMap { key in
                guard state.pending[key] != nil else { return nil }
                let deadline = now + state.pending[key]!.timeout
                state.pending[key]!.attempts += 1
                state.pending[key]!.deadline = deadline
                return (state.pending[key]!.service, state.pending[key]!.body, deadline)
            }
        }
        // Never a blocking send: a DEALER with no connection up (between a
        // refused handshake and the next reconnect, say) would block this
        // thread, and with it every deadline, forever. A message that cannot
        // be queued now is lost like one lost on the way: its deadline
        // retries it, or fails it with a timeout the caller can explain.
        for (service, body, _) in batch where try !socket.send(MDP.clientRequest(service: service, body: body), wait: false) {
            logger.debug("no connection to queue a request on; it will time out or be retried", metadata: ["endpoint": "\(endpoint)"])
        }
        return batch.map(\.2).min()
    }

    /// Sends every pending request again, on a new socket after a timeout.
    private func resendAll(on socket: Socket, now: Instant) throws -> Instant? {
        state.withLock { state in
            state.unsent = state.pending.keys.sorted()
            // Only the requests that timed out spend an attempt; the others
            // are resent because their socket is gone.
            for key in state.unsent {
                if let deadline = state.pending[key]!.deadline, deadline > now { state.pending[key]!.attempts -= 1 }
            }
        }
        return try sendUnsent(on: socket, now: now)
    }

    private func deliver(_ frames: [Frame]) {
        guard frames.count >= 3, frames[0].isEmpty, frames[1] == MDP.clientHeader else {
            logger.warning("malformed reply dropped", metadata: ["frames": "\(frames.count)"])
            return
        }
        let service = frames[2]
        let body = Array(frames[3...])
        let id = correlator(body)
        let request = state.withLock { state -> Pending? in
            if let id {
                // A reply to a request already answered or given up on is dropped.
                return state.byCorrelation[id].flatMap { state.remove($0) }
            }
            // No id (an 8/MMI answer, or an error about an unreadable request):
            // the oldest request sent to that service, preferring one sent without an id.
            let candidates = state.pending.filter { $0.value.service == service && $0.value.deadline != nil }
            let key = candidates.filter { $0.value.correlationID == nil }.keys.min() ?? candidates.keys.min()
            return key.flatMap { state.remove($0) }
        }
        request?.continuation.resume(returning: body)
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
                    service: request.serviceName, endpoint: endpoint, attempts: attempts, each: request.timeout))
        }
        if outcome.0 {
            logger.info("no reply in time; retrying on a new socket", metadata: ["endpoint": "\(endpoint)"])
        }
        return outcome
    }
}
