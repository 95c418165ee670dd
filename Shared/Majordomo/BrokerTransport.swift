import ZeroMQ

/// The broker's ROUTER, as one routing space over two transports: our own
/// ZMTP router (`StreamRouter`) for plaintext ipc:// and tcp://, and a
/// libzmq ROUTER for the rest (CURVE, tcp:// host names, inproc://,
/// ipc://*, or everything when `POSTS_ZMTP=libzmq`). Either may be absent.
///
/// Thread rules: the broker's thread only.
final class BrokerTransport {
    enum Sent { case sent, unreachable, highWaterMark }

    let socket: Socket?
    let stream: StreamRouter?
    /// The endpoints bound, in the order asked, wildcards resolved.
    let endpoints: [String]
    /// True when the last call on `socket` was a receive that found
    /// nothing: only then may a wait block on its descriptor (see
    /// `Poller.waitAfterDraining`). Every send clears it.
    private var socketDrained = false
    /// Alternates which transport `receive` asks first, so neither starves.
    private var streamFirst = false
    private let waker: Int32
    /// With a stream router, the waker and the socket's ZMQ_FD are watched
    /// in its epoll set; this is the waker's key there.
    private var wakerKey: UInt64 = 0
    private var problems: [PeerProblem] = []
    private var dropped = 0

    init(
        options: Broker.Options, context: Context, waker: Int32,
        handshakeFailed: @escaping @Sendable (HandshakeEvent) -> Void
    ) throws {
        self.waker = waker
        let own = options.endpoints.map { context.speaksZMTPItself($0, binding: true) }
        var stream: StreamRouter?
        var socket: Socket?
        if own.contains(true) {
            let limits = ZMTP.Limits(
                maxFrameSize: Int(options.maxFrameSize), maxFrames: options.configuration.maxFrames,
                messageTimeout: options.messageTimeout, maxOutput: options.maxPeerOutput, sharedFrames: MDP.headers)
            stream = try StreamRouter(limits: limits, budget: options.connections ?? .withinDescriptorLimit())
        }
        if own.contains(false) {
            let made = try Socket(context, .router)
            try made.set(.routerMandatory, true)
            // libzmq cannot stop reading one peer, so what waits for a peer
            // that does not read is bounded by a high-water mark instead:
            // twice the requests a client may have outstanding, which a
            // client that reads its replies never reaches. Past it a reply
            // is dropped, counted and logged (Broker.flush).
            try made.set(.sendHighWaterMark, Int32(clamping: max(1000, options.configuration.clientLimit * 2)))
            try made.set(.maxMessageSize, options.maxFrameSize)
            if context.security.keys != nil { try HandshakeWatch.watch(made, report: handshakeFailed) }
            socket = made
        }
        var endpoints: [String] = []
        for (endpoint, isOwn) in zip(options.endpoints, own) {
            if isOwn, let stream {
                endpoints.append(try stream.bind(endpoint, curve: context.curveServer(binding: endpoint)))
            } else if let socket {
                try socket.bind(endpoint)
                endpoints.append(socket.lastEndpoint ?? endpoint)
            }
        }
        self.socket = socket
        self.stream = stream
        self.endpoints = endpoints
        if let stream {
            wakerKey = try stream.watch(waker)
            // Level-triggered there, but ZMQ_FD is readable only while
            // libzmq has commands it has not taken, which the receive after
            // every wait takes.
            if let socket { _ = try stream.watch(try socket.get(.fileDescriptor)) }
        }
    }

    /// Waits until a transport has input, `waker` is readable, or `timeout`
    /// passes (zero: only looks); returns whether `waker` was readable.
    @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
    func wait(timeout: Duration) throws -> Bool {
        if let stream {
            // The socket may hold messages until a receive found none.
            try stream.wait(timeout: socket != nil && !socketDrained ? .zero : timeout)
            socketDrained = false
            return stream.isReady(wakerKey)
        }
        guard let socket else { return false }
        // ZMQ_FD signals only changes: until a receive found nothing, the
        // socket may hold messages, so the wait only looks.
        let woken = try Poller.waitAfterDraining(socket, orFileDescriptor: waker, timeout: socketDrained ? timeout : .zero)
        socketDrained = false
        return woken
    }

    /// The next message either transport holds (routing id first), without
    /// blocking; nil when neither holds one.
    func receive() throws -> [Frame]? {
        streamFirst.toggle()
        if streamFirst, let message = stream?.receive() { return message }
        if let message = try receiveFromSocket() { return message }
        return streamFirst ? nil : stream?.receive()
    }

    private func receiveFromSocket() throws -> [Frame]? {
        guard let socket, !socketDrained else { return nil }
        while let frames = try socket.receive(wait: false) {
            // A libzmq peer may pick its routing id: one that names a
            // connection of the other transport is not let in as it.
            guard let stream, let sender = frames.first, stream.owns(sender) else { return frames }
            problems.append(PeerProblem(.borrowedRoutingID, "\(sender) is connected over ipc://; this came through libzmq"))
            dropped += 1
        }
        socketDrained = true
        return nil
    }

    func send(_ message: [Frame]) throws -> Sent {
        // The stream router looks the routing id up once: false is no peer of its.
        if let stream, stream.send(message) { return .sent }
        guard let socket else { return .unreachable }
        socketDrained = false
        do {
            return try socket.send(message, wait: false) ? .sent : .highWaterMark
        } catch let error as ZMQError where error.isHostUnreachable {
            return .unreachable
        }
    }

    /// Writes what `send` queued for ipc:// peers.
    func flush() { stream?.flush() }

    /// Messages dropped before the broker saw them (too many frames, a
    /// routing id of the other transport), since last asked.
    func takeDropped() -> Int {
        defer { dropped = 0 }
        return dropped + (stream?.takeDropped() ?? 0)
    }

    func takeProblems() -> [PeerProblem] {
        var all = problems
        problems.removeAll()
        if let stream { all += stream.takeProblems() }
        return all
    }

    /// Delivers what is queued (DISCONNECTs at the end) and closes.
    func close() {
        stream?.finish(within: .milliseconds(500))
        socket?.close(lingering: .milliseconds(500))
    }

    /// Sets the transport's gauges: bytes waiting for peers, peers held
    /// back, connections (our own ZMTP only; libzmq does not tell).
    func updateGauges(_ metrics: BrokerMetrics) {
        guard let stream else { return }
        let (total, largest) = stream.queuedBytes()
        metrics.buffered.record(total)
        metrics.peerBufferedMax.record(largest)
        metrics.heldBack.record(stream.peersHeldBack)
        metrics.connections.record(stream.peerCount)
    }
}
