#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// A ZeroMQ DEALER for an ipc:// or tcp:// endpoint, speaking ZMTP 3.1
/// itself (NULL, or CURVE as a client) on a Unix-domain or TCP socket: one connection, to a
/// `StreamRouter` or any libzmq ROUTER. Like libzmq's DEALER it connects again, every 100 ms,
/// while the endpoint cannot be reached or after the connection is lost,
/// and holds what is sent meanwhile (up to 1,000 messages). Like the
/// router, it stops reading its peer while more than `Limits.maxOutput`
/// bytes wait to be written to it, so a peer that sends without reading
/// cannot grow it without bound.
///
/// Why not libzmq's DEALER: there each message is handed between the
/// caller's thread and libzmq's I/O thread, both ways; here the caller
/// reads and writes the socket itself.
///
/// With `heartbeat`, it sends a PING every interval and takes the peer as
/// gone when nothing came for the timeout after one, as libzmq's
/// ZMQ_HEARTBEAT_IVL and ZMQ_HEARTBEAT_TIMEOUT do; with `watching`, it
/// keeps its connection events for `takeEvents`, as a libzmq socket's
/// monitor tells them.
///
/// Thread rules: one thread makes it, uses it and closes it.
public final class StreamDealer {
    /// ZMTP PINGs every `interval`, and the silence after one past which
    /// the connection is closed (and made again).
    public struct Heartbeat: Sendable {
        public var interval: Duration
        public var timeout: Duration
        public init(interval: Duration, timeout: Duration) {
            (self.interval, self.timeout) = (interval, timeout)
        }
    }

    public let endpoint: String
    private let identity: [UInt8]?
    /// What it says it is, and whom it talks to: a DEALER and ROUTERs, or
    /// a PUB or SUB of the event bus and its XSUB or XPUB.
    private let socketType: String
    private let peerTypes: Set<String>
    /// Sent first on every connection, before what waits: a SUB's
    /// subscription, which a new connection must hear again.
    private let opening: [[Frame]]
    private let limits: ZMTP.Limits
    private let curve: CurveRole?
    /// Told how each handshake ended: as `HandshakeWatch` tells of a
    /// libzmq socket's.
    let handshake: (@Sendable (HandshakeEvent) -> Void)?
    let heartbeat: (interval: UInt64, timeout: UInt64)?
    /// The connection events since `takeEvents` last took them; nil when
    /// not kept.
    var events: [HandshakeWatch.Monitored]?
    /// What is known of the connection: it was made (what `.connected`
    /// says), its handshake ended, the last PING, and the first PING since
    /// the peer last sent anything.
    var made = false
    var settled = false
    var pingedAt: UInt64 = 0
    var unansweredSince: UInt64?
    var connection: ZMTPConnection?
    private var reconnectAt: ContinuousClock.Instant
    private let clock = ContinuousClock()
    /// Messages sent while not connected, each whole.
    private var waiting: [[Frame]] = []
    private var inbox = Inbox()
    private let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 14, alignment: 8)
    private var problems: [PeerProblem] = []

    static let reconnectInterval = Duration.milliseconds(100)
    static let waitingLimit = 1000

    /// Connects at once when it can; otherwise `wait` tries again. With
    /// `curve`, as a CURVE client; `handshake` is told how each handshake ends.
    public init(
        endpoint: String, identity: [UInt8]?, limits: ZMTP.Limits, curve: CurveRole? = nil,
        handshake: (@Sendable (HandshakeEvent) -> Void)? = nil, heartbeat: Heartbeat? = nil, watching: Bool = false,
        socketType: String = "DEALER", peerTypes: Set<String> = ["ROUTER"], opening: [[Frame]] = []
    ) {
        self.endpoint = endpoint
        self.identity = identity
        self.socketType = socketType
        self.peerTypes = peerTypes
        self.opening = opening
        self.limits = limits
        self.curve = curve
        self.handshake = handshake
        self.heartbeat = heartbeat.map { (Ticks.of($0.interval), Ticks.of($0.timeout)) }
        events = watching ? [] : nil
        reconnectAt = clock.now
        connect()
    }

    deinit {
        connection?.close()
        scratch.deallocate()
    }

    public var isConnected: Bool { connection != nil }

    /// Bytes queued for the peer and not yet written.
    public var backlog: Int { connection?.session.queued ?? 0 }

    /// Whether `endpoint` is one a dealer can connect to: an ipc:// path,
    /// or tcp:// with a numeric address and port (no wildcard).
    public static func reaches(_ endpoint: String) -> Bool {
        StreamAddress(endpoint, forBinding: false) != nil
    }

    /// What the peer refused or did wrong since last asked, for a log.
    public func takeProblems() -> [PeerProblem] {
        defer { problems.removeAll() }
        return problems
    }

    private func connect() {
        reconnectAt = clock.now + Self.reconnectInterval
        guard let descriptor = StreamListener.connect(to: endpoint) else { return }
        let connection = ZMTPConnection(
            descriptor: descriptor, socketType: socketType, identity: identity,
            peerTypes: peerTypes, limits: limits, curve: curve)
        for message in opening { connection.append(message) }
        for message in waiting { connection.append(message) }
        waiting.removeAll()
        (made, settled, unansweredSince) = (false, false, nil)
        self.connection = connection
        flush(connection)
    }

    /// Writes what it can; holds the peer back, or lets it go, by what is left.
    private func flush(_ connection: ZMTPConnection) {
        if connection.write() {
            if !made { noteProgress(connection) }
            if connection.mayChangeHoldBack { _ = connection.updateHoldBack(now: Ticks.now()) }
        } else {
            readWhatIsLeft(connection)
            connection.drop(nil, for: self)
        }
    }

    /// A write that failed because the peer closed its end leaves what it
    /// sent before still to be read (`closedWithInputLeft`, the router's
    /// rule too): read first, until the socket is empty, not dropped with
    /// the connection. A broker that answers a request and exits at once
    /// (a gateway's "interrupted" at the end of its shutdown grace) was
    /// heard as silence by a client whose thread ran late and wrote its
    /// heartbeat before it read the answer.
    private func readWhatIsLeft(_ connection: ZMTPConnection) {
        guard connection.closedWithInputLeft else { return }
        connection.isReadOnly = true  // emptied, its socket drops it
        while !connection.isClosed { connection.read(into: scratch, for: self, now: Ticks.now()) }
    }

    /// Queues a message and writes what it can now. False (the message is
    /// not taken) only while not connected with 1,000 messages waiting.
    @discardableResult
    public func send(_ frames: [Frame]) -> Bool {
        guard queue(frames) else { return false }
        flush()
        return true
    }

    /// Queues a message, to be written by `flush` (or by `wait`, which
    /// writes what waits): messages queued together go out in one write.
    /// False as `send`.
    @discardableResult
    public func queue(_ frames: [Frame]) -> Bool {
        precondition(!frames.isEmpty, "a message has at least one frame")
        guard let connection else {
            guard waiting.count < Self.waitingLimit else { return false }
            waiting.append(frames)
            return true
        }
        connection.append(frames)
        return true
    }

    /// Writes what is queued, as much as fits now.
    public func flush() {
        if let connection, connection.hasOutput { flush(connection) }
    }

    /// The next message `wait` read, without blocking; nil when none is here.
    public func receive() -> [Frame]? { inbox.take() }

    /// Blocks until the peer sent something, `fileDescriptor` is readable,
    /// or `timeout` passes; returns whether `fileDescriptor` was readable.
    /// Reads what the peer sent (for `receive`), carries on the handshake,
    /// writes what did not fit before, and connects again when it is time.
    @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
    public func wait(orFileDescriptor fileDescriptor: Int32, timeout: Duration) throws -> Bool {
        let (descriptor, events, reconnectAt) = readiness()
        let blocking = reconnectAt.map { min(timeout, clock.now.duration(to: $0)) } ?? timeout
        let milliseconds = Int32(Poller.milliseconds(rounding: blocking))
        // Once per request on a worker's hot path: no array allocated.
        let (woken, revents) = try withUnsafeTemporaryAllocation(of: pollfd.self, capacity: 2) { items in
            items[0] = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
            // poll(2) skips an item whose descriptor is negative.
            items[1] = pollfd(fd: descriptor, events: events, revents: 0)
            while poll(items.baseAddress, 2, milliseconds) == -1 {
                guard errno == EINTR else { throw ZMQError(code: errno, operation: "poll") }
            }
            return (items[0].revents & Int16(POLLIN) != 0, items[1].revents)
        }
        handle(revents: revents)
        return woken
    }

    /// What to wait for, for a caller that polls several links at once:
    /// the connection's descriptor and the events it needs, or, while not
    /// connected, -1 and when to connect again (it connects here when due).
    public func readiness() -> (descriptor: Int32, events: Int16, deadline: ContinuousClock.Instant?) {
        if connection == nil, clock.now >= reconnectAt { connect() }
        guard let connection else { return (-1, 0, reconnectAt) }
        var left: UInt64?
        if connection.session.stage != .traffic || connection.stalledSince != nil {
            guard let limit = timeLeft(connection) else { return (-1, 0, reconnectAt) }
            left = limit
        }
        if heartbeat != nil, connection.session.stage == .traffic {
            guard let beat = beat(connection) else { return (-1, 0, reconnectAt) }
            left = min(left ?? beat, beat)
        }
        let deadline = left.map { clock.now + .nanoseconds(Int64(clamping: $0)) }
        let input = connection.isHeldBack ? 0 : Int16(POLLIN)
        return (connection.descriptor, input | (connection.hasOutput ? Int16(POLLOUT) : 0), deadline)
    }

    /// A handshake not done, or a message not whole, within its limit costs
    /// the peer the connection (nil: dropped); otherwise the nanoseconds
    /// left until it would (an inner nil: nothing is running out).
    private func timeLeft(_ connection: ZMTPConnection) -> UInt64?? {
        let now = Ticks.now()
        let due: UInt64
        let problem: PeerProblem
        if connection.session.stage != .traffic {
            due = connection.opened &+ Ticks.of(limits.handshakeTimeout)
            problem = PeerProblem(.refused, "no ZMTP handshake within \(limits.handshakeTimeout)")
        } else if let since = connection.stalledSince, !connection.isHeldBack {
            due = since &+ Ticks.of(limits.messageTimeout)
            problem = PeerProblem(.stalled, "part of a message waited more than \(limits.messageTimeout) for the rest")
        } else {
            return .some(nil)
        }
        guard now < due else {
            connection.drop(problem, for: self)
            return nil
        }
        return due - now
    }

    /// Acts on what poll(2) reported for `readiness()`'s descriptor: reads
    /// what the peer sent (for `receive`), carries on the handshake, writes
    /// what did not fit before.
    public func handle(revents: Int16) {
        guard let connection, revents != 0 else { return }
        if revents & Int16(POLLOUT) != 0 { flush(connection) }
        guard !connection.isClosed else { return }
        if connection.isHeldBack {
            if revents & Int16(POLLHUP | POLLERR) != 0 { connection.drop(nil, for: self) }
        } else if revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            let now = Ticks.now()
            connection.read(into: scratch, for: self, now: now)
            guard !connection.isClosed else { return }
            noteProgress(connection)
            // Reading may have queued output (READY, PONGs). Its deadlines
            // are looked at by `readiness`, before every wait.
            if connection.hasOutput { flush(connection) }
        }
    }

    /// Writes what is queued for up to `lingering`, then closes.
    public func close(lingering: Duration) {
        let deadline = clock.now + lingering
        while let connection, connection.hasOutput, clock.now < deadline {
            var item = pollfd(fd: connection.descriptor, events: Int16(POLLOUT), revents: 0)
            _ = poll(&item, 1, 10)
            if !connection.write() { connection.drop(nil, for: self) }
        }
        connection?.close()
        connection = nil
    }
}

extension StreamDealer: ZMTPReceiver {
    func ready(_ connection: ZMTPConnection, metadata: UnsafeRawBufferPointer) -> ZMTPSession.Admission { .admitted(prefix: nil) }

    /// Never asked: a dealer is CURVE's client, not its server.
    func admits(_ connection: ZMTPConnection, clientKey: [UInt8]) -> Bool { false }

    func message(_ connection: ZMTPConnection, _ frames: [Frame]) { inbox.append(frames) }

    func report(_ connection: ZMTPConnection, _ problem: PeerProblem) {
        problems.append(PeerProblem(problem.kind, "\(endpoint): \(problem.detail)"))
    }

    /// Lost: what was not written is dropped with the connection (its
    /// peer may be a new process that knows nothing of it), and the next
    /// connection is tried after the interval.
    func closed(_ connection: ZMTPConnection) {
        guard self.connection === connection else { return }
        noteProgress(connection)
        // A handshake that ended with the connection closed: under CURVE,
        // a server that cannot open HELLO (the key this end was given is
        // not the server's); libzmq may close without a byte of its
        // greeting when the mechanisms differ.
        if made, !settled { settle(.closedDuringHandshake) }
        if made { events?.append(.disconnected) }
        self.connection = nil
        reconnectAt = clock.now + Self.reconnectInterval
    }
}
