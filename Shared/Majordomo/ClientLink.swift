import ZeroMQ

/// A client's connection to one broker: our own ZMTP DEALER
/// (`StreamDealer`, with heartbeats and its connection events) for ipc://
/// and numeric tcp://, plaintext or CURVE; a libzmq DEALER with its
/// monitor for the rest (`Context.speaksZMTPItself`).
///
/// Thread rules: the client's thread only (`ClientEngine`).
protocol ClientLink: AnyObject {
    /// Adds what to wait for to `poller` (before every wait); returns when
    /// to look again regardless: to connect again, or for a heartbeat.
    func register(in poller: inout Poller) -> ContinuousClock.Instant?
    /// Acts on what the poll found for it; returns its connection events
    /// since last asked (connected, the handshake's outcome, disconnected).
    func polled(_ poller: Poller) -> [HandshakeWatch.Monitored]
    /// Queues a message without waiting; false when it cannot be queued.
    func send(_ frames: [Frame]) throws -> Bool
    /// Writes what `send` queued, as much as fits now.
    func flush()
    /// The next reply received, without blocking; nil when none is here.
    func receiveIfAny() throws -> [Frame]?
    /// What the broker refused or did wrong since last asked, for a log.
    func takeProblems() -> [PeerProblem]
    func close()
}

/// Connects to `endpoint` on the transport that serves it, with ZMTP
/// heartbeats every `interval` and the broker taken as gone after
/// `timeout` of silence since one.
func connectClientLink(to endpoint: String, context: Context, heartbeat: StreamDealer.Heartbeat) throws -> any ClientLink {
    if context.speaksZMTPItself(endpoint, binding: false) {
        let curve = try context.curveClient(connecting: endpoint)
        return OwnDealer(
            StreamDealer(endpoint: endpoint, identity: nil, limits: .fromChosenBroker, curve: curve, heartbeat: heartbeat, watching: true))
    }
    return try MonitoredDealer(endpoint: endpoint, context: context, heartbeat: heartbeat)
}

/// Our own ZMTP DEALER, polled beside the client's wake-up.
final class OwnDealer: ClientLink {
    let dealer: StreamDealer
    /// Its descriptor's place in this wait's poller, while connected.
    private var item: Int?

    init(_ dealer: StreamDealer) { self.dealer = dealer }

    func register(in poller: inout Poller) -> ContinuousClock.Instant? {
        let deadline: ContinuousClock.Instant?
        (item, deadline) = poller.add(dealer)
        return deadline
    }

    func polled(_ poller: Poller) -> [HandshakeWatch.Monitored] {
        poller.deliver(to: dealer, at: item)
        return dealer.takeEvents()
    }

    func send(_ frames: [Frame]) throws -> Bool { dealer.queue(frames) }
    func flush() { dealer.flush() }
    func receiveIfAny() throws -> [Frame]? { dealer.receive() }
    func takeProblems() -> [PeerProblem] { dealer.takeProblems() }
    func close() { dealer.close(lingering: .zero) }
}

/// A libzmq DEALER and the monitor of its connection events.
final class MonitoredDealer: ClientLink {
    let socket: Socket
    let monitor: ConnectionMonitor
    private var items = (socket: 0, monitor: 0)

    init(endpoint: String, context: Context, heartbeat: StreamDealer.Heartbeat) throws {
        socket = try Socket(context, .dealer)
        // The broker bounds what one client may have outstanding, so no
        // high-water mark is needed here to bound memory.
        try socket.set(.sendHighWaterMark, 0)
        try socket.set(.receiveHighWaterMark, 0)
        try socket.set(.heartbeatInterval, Int32(Poller.milliseconds(rounding: heartbeat.interval)))
        try socket.set(.heartbeatTimeout, Int32(Poller.milliseconds(rounding: heartbeat.timeout)))
        monitor = try ConnectionMonitor(watching: socket)
        try socket.connect(endpoint)
    }

    func register(in poller: inout Poller) -> ContinuousClock.Instant? {
        items = (poller.addReadable(socket), poller.addReadable(monitor.socket))
        return nil
    }

    func polled(_ poller: Poller) -> [HandshakeWatch.Monitored] {
        poller.isReadable(items.monitor) ? monitor.take() : []
    }

    // Never a blocking send: a DEALER with no connection up (between a
    // refused handshake and the next reconnect, say) would block the
    // client's thread, and with it every deadline, forever.
    func send(_ frames: [Frame]) throws -> Bool { try socket.send(frames, wait: false) }
    /// libzmq's I/O thread writes.
    func flush() {}
    func receiveIfAny() throws -> [Frame]? { try socket.receive(wait: false) }
    /// libzmq reports nothing of the kind; the monitor covers handshakes.
    func takeProblems() -> [PeerProblem] { [] }
    func close() { monitor.close(with: socket) }
}
