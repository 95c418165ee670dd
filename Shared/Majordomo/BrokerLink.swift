import SystemSupport
import ZeroMQ
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// A worker session's connection to the broker: our own ZMTP DEALER
/// (`StreamDealer`) for ipc:// and numeric tcp://, plaintext or CURVE, a
/// libzmq DEALER for the rest (`Context.speaksZMTPItself`).
///
/// Thread rules: the session's thread only.
protocol BrokerLink: AnyObject {
    /// Sends a message whole; false when it cannot be queued without
    /// waiting. Our own ZMTP only queues it, for `flush`: replies to
    /// requests that came together go out in one write.
    @discardableResult
    func send(_ frames: [Frame], wait: Bool) throws -> Bool
    /// Writes what `send` queued, as much as fits now (the rest when
    /// `readiness` says there is room). Before every wait.
    func flush()
    /// The next message received, without blocking; nil when none is here.
    func receiveIfAny() throws -> [Frame]?
    /// For the thread that waits on its sessions' links at once
    /// (`SessionThread`): the descriptor to poll (-1 for none) with its
    /// events, and when to look again regardless. Call it only when the
    /// last call on the link was a `receive` that found nothing.
    func readiness() throws -> (descriptor: Int32, events: Int16, deadline: ContinuousClock.Instant?)
    /// Acts on what poll(2) reported for `readiness()`'s descriptor.
    func handle(revents: Int16)
    /// Delivers what is queued for up to `lingering`, then closes.
    func close(lingering: Duration)
    /// What the broker refused or sent wrong since last asked (the link
    /// connects again by itself), for the session's log.
    func takeProblems() -> [PeerProblem]
}

extension BrokerLink {
    func send(_ frames: [Frame]) throws { try send(frames, wait: true) }
}

extension ZMTP.Limits {
    /// What a worker or a client takes from the broker it chose: a guard
    /// against a runaway allocation only, for requests and replies alike.
    static let fromChosenBroker = ZMTP.Limits(maxFrameSize: 256 << 20, maxFrames: 1024, sharedFrames: MDP.headers)
}

/// Connects to `endpoint` as `identity`, on the transport that serves it.
func connectBrokerLink(
    to endpoint: String, identity: [UInt8], context: Context,
    handshake: @escaping @Sendable (HandshakeEvent) -> Void
) throws -> any BrokerLink {
    if context.speaksZMTPItself(endpoint, binding: false) {
        let curve = try context.curveClient(connecting: endpoint)
        return StreamDealer(
            endpoint: endpoint, identity: identity, limits: .fromChosenBroker,
            curve: curve, handshake: curve == nil ? nil : handshake)
    }
    let socket = try Socket(context, .dealer)
    try socket.set(.routingID, identity)
    if Security.needsCurve(endpoint, curveOnIPC: context.security.curveOnIPC) {
        try HandshakeWatch.watch(socket, report: handshake)
    }
    try socket.connect(endpoint)
    return socket
}

extension StreamDealer: BrokerLink {
    func send(_ frames: [Frame], wait: Bool) throws -> Bool { queue(frames) }
    func receiveIfAny() throws -> [Frame]? { receive() }
}

extension Socket: BrokerLink {
    func receiveIfAny() throws -> [Frame]? { try receive(wait: false) }

    /// libzmq reports nothing of the kind; `HandshakeWatch` covers CURVE.
    func takeProblems() -> [PeerProblem] { [] }

    /// libzmq's own descriptor: readable when something may have arrived
    /// after a receive found nothing (what `Poller.waitAfterDraining` relies on too).
    func readiness() throws -> (descriptor: Int32, events: Int16, deadline: ContinuousClock.Instant?) {
        (try get(.fileDescriptor), Int16(POLLIN), nil)
    }

    /// `receiveIfAny` reads; libzmq's I/O thread did the rest.
    func handle(revents: Int16) {}

    /// libzmq's I/O thread writes.
    func flush() {}

    func close(lingering: Duration) {
        guard lingering > .zero else { return close() }
        // Linger only holds a message if the context is terminated before
        // the process exits, which the executable may not do; and several
        // processes stopping at once on few cores can starve libzmq's I/O
        // thread. So give it a moment to deliver before the socket closes.
        try? set(.linger, Int32(lingering / .milliseconds(1)))
        sleepThread(seconds: 0.1)
        close()
    }
}
