#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// A ZeroMQ ROUTER for ipc:// and tcp:// endpoints, speaking ZMTP 3.1
/// itself (NULL or CURVE) on Unix-domain and TCP sockets, driven by its owner's loop
/// (`wait`, `receive`, `send`, `flush`): libzmq peers (DEALER, REQ, ROUTER)
/// connect to it as to a libzmq ROUTER. What its connections report is handled in
/// StreamRouter+Receiver.swift, which shares its state (hence not private).
///
/// Why not libzmq's ROUTER: each message through a libzmq socket is handed
/// between the caller's thread and libzmq's I/O thread, both ways, and a
/// broker does that four times per request. Here a read takes every whole
/// message a peer has sent, and a write sends every message queued for it,
/// on the owner's thread.
///
/// Like a libzmq ROUTER with ROUTER_MANDATORY: each message received starts
/// with the sender's routing id (its Identity, or one made here); `send`
/// reports a routing id it does not know; nothing is dropped for a
/// high-water mark. Instead a peer with more than `Limits.maxOutput` bytes
/// waiting for it is not read until half of them are written, so what it
/// sends waits in its own socket buffer (back-pressure), and at most
/// `budget.limit` peers are connected at once (`StreamAcceptor`). It also
/// serves an event bus's two ends (`Role`).
///
/// Thread rules: one thread, the owner's, makes it, polls it and closes it.
public final class StreamRouter {
    public let limits: ZMTP.Limits
    private let events: EventPoll
    /// The listeners, and the bound on connections they take.
    private let acceptor: StreamAcceptor
    /// Each listener's role, and its CURVE server (nil: plaintext), by its index.
    private(set) var roles: [Role] = []
    private(set) var curves: [CurveServerSetup?] = []
    /// Peers just let in whose role has a welcome message to send.
    var welcomed: [ZMTPConnection] = []
    /// Routing ids of peers gone, for roles that report it.
    var departed: [Frame] = []
    /// Every connection by its key in `events`.
    var connections: [UInt64: ZMTPConnection] = [:]
    private var nextKey: UInt64 = 0
    private var externals = 0
    private var readyExternals: [UInt64] = []
    /// When `wait` next looks for peers whose handshake is overdue, and
    /// for messages left unfinished.
    private var nextSweep: UInt64 = 0
    private var nextStallSweep: UInt64 = 0
    /// When the last wait returned (`Ticks`): what the connections' clocks use.
    private var now = Ticks.now()
    private let handshakeTimeout: UInt64
    private let messageTimeout: UInt64
    /// Peers held back now: while none is, taking a message checks nothing.
    var heldBack = 0
    var peers: [Frame: ZMTPConnection] = [:]
    /// Peers still in their handshake, which have no routing id yet.
    var greeting: [ObjectIdentifier: ZMTPConnection] = [:]
    var nextNumber = UInt32.random(in: .min ... .max)
    /// Where each read lands first; only a partial frame is kept per peer.
    private let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
    private var readable: [ZMTPConnection] = []
    /// Messages of the peer read last (`inboxPeer`): one read's worth.
    var inbox = Inbox()
    private var inboxPeer: ZMTPConnection?
    /// Peers let go of since they were held back, with messages deferred.
    private var resumed: [ZMTPConnection] = []
    private var dirty: [ZMTPConnection] = []
    /// What peers did wrong, for the owner to log: connections refused
    /// or dropped, messages dropped.
    var problems: [PeerProblem] = []
    var droppedMessages = 0

    /// `budget`: connections at once (those in their handshake included);
    /// past it a new connection is closed as it is accepted.
    public init(limits: ZMTP.Limits, budget: ConnectionBudget = ConnectionBudget(limit: .max)) throws {
        self.limits = limits
        handshakeTimeout = Ticks.of(limits.handshakeTimeout)
        messageTimeout = Ticks.of(limits.messageTimeout)
        events = try EventPoll()
        acceptor = StreamAcceptor(events: events, firstKey: Self.listenerKeys, budget: budget)
    }

    /// Keys in `events`: connections count up from 1; these are apart.
    private static let listenerKeys: UInt64 = 1 << 62
    private static let externalKeys: UInt64 = 1 << 61

    deinit {
        close()
        scratch.deallocate()
    }

    /// Whether `endpoint` is one this router can serve: ipc:// (not the
    /// wildcard ipc://*, which only libzmq resolves) and tcp:// with a
    /// numeric address (`StreamAddress`).
    public static func serves(_ endpoint: String) -> Bool {
        StreamAddress(endpoint, forBinding: true) != nil
    }

    /// Listens on `endpoint`, as a CURVE server when `curve` is given;
    /// returns it as bound (a tcp:// port of `*` as the kernel chose it).
    /// Throws naming it and the reason.
    @discardableResult
    public func bind(_ endpoint: String, as role: Role = .router, curve: CurveServerSetup? = nil) throws -> String {
        let index = try acceptor.bind(endpoint)
        roles.append(role)
        curves.append(curve)
        return acceptor.listeners[index].endpoint
    }

    /// The role of the listener a peer came through.
    public func role(of routingID: Frame) -> Role? { peers[routingID].map { roles[$0.listener] } }

    /// Bytes waiting to be written to a peer.
    public func queuedBytes(of routingID: Frame) -> Int? { peers[routingID]?.session.queued }

    /// Bytes waiting to be written, to all peers and to the one with most:
    /// a walk over every peer, for metrics once in a while.
    public func queuedBytes() -> (total: Int, largest: Int) {
        var total = 0, largest = 0
        for peer in peers.values {
            let queued = peer.session.queued
            total += queued
            largest = max(largest, queued)
        }
        return (total, largest)
    }

    /// Peers not read until they take what waits for them.
    public var peersHeldBack: Int { heldBack }

    /// Routing ids of peers that left since last asked (roles that report it).
    public func takeDeparted() -> [Frame] {
        defer { departed.removeAll() }
        return departed
    }

    /// Has `wait` watch another descriptor for input (a waker pipe, a
    /// libzmq socket's ZMQ_FD); `isReady` says whether the last wait saw it.
    public func watch(_ fileDescriptor: Int32) throws -> UInt64 {
        let key = Self.externalKeys + UInt64(externals)
        try events.add(fileDescriptor, key: key)
        externals += 1
        return key
    }

    public func isReady(_ key: UInt64) -> Bool { readyExternals.contains(key) }

    /// Whether a peer of this router has `routingID`.
    public func owns(_ routingID: Frame) -> Bool { peers[routingID] != nil }

    public var peerCount: Int { peers.count }

    public func takeProblems() -> [PeerProblem] {
        // Asked after every batch: nothing to take is the usual answer.
        if problems.isEmpty, acceptor.problems.isEmpty { return [] }
        defer {
            problems.removeAll()
            acceptor.problems.removeAll()
        }
        return acceptor.problems + problems
    }

    /// Messages dropped for having more frames than the limit, since last asked.
    public func takeDropped() -> Int {
        defer { droppedMessages = 0 }
        return droppedMessages
    }

    // MARK: Polling

    /// Waits up to `timeout` (zero: only looks) for a new connection, a
    /// peer that sent something or has room for what waits for it, or a
    /// watched descriptor. Accepts, writes where there is room, and notes
    /// who sent something, for `receive` to read.
    @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
    public func wait(timeout: Duration) throws {
        defer { closeOverdue() }
        readyExternals.removeAll(keepingCapacity: true)
        // Deferred messages of a peer let go are already read: nothing to wait for.
        let timeout = resumed.isEmpty ? timeout : .zero
        try events.wait(timeout: acceptor.isResting ? acceptor.timeout(timeout) : timeout) { ready in
            if let listener = acceptor.listener(forKey: ready.key) {
                acceptor.accept(from: listener) { admit($0, listener: listener) }
            } else if ready.key >= Self.externalKeys {
                readyExternals.append(ready.key)
            } else if let peer = connections[ready.key], !peer.isClosed {
                if ready.writable {
                    if peer.write() { updateInterest(of: peer) } else { writeFailed(peer) }
                }
                if peer.isHeldBack {
                    // Not read while held back; a peer that hung up meanwhile is
                    // gone, once what it sent before is read (`readToTheEnd`).
                    if ready.hungUp {
                        if peer.hasUnreadInput { readToTheEnd(peer) } else { peer.drop(nil, for: self) }
                    }
                } else if ready.readable, !peer.isClosed {
                    readable.append(peer)
                }
            }
        }
        now = Ticks.now()
        if acceptor.isResting { acceptor.wake() }
    }

    private func admit(_ descriptor: Int32, listener: Int) {
        let role = roles[listener]
        let peer = ZMTPConnection(
            descriptor: descriptor, socketType: role.socketType, peerTypes: role.peerTypes, limits: limits,
            subscriptionCommands: role.subscriptionCommands, curve: curves[listener].map { .server($0.keys) })
        peer.listener = listener
        peer.budget = acceptor.budget
        nextKey += 1
        peer.key = nextKey
        do {
            try events.add(descriptor, key: peer.key)
        } catch {
            problems.append(PeerProblem(.refused, "a new connection could not be watched: \(error)"))
            peer.close()
            return
        }
        connections[peer.key] = peer
        greeting[ObjectIdentifier(peer)] = peer
        markDirty(peer)
    }

    /// A peer that connected and has not finished its handshake within
    /// the limit is closed: otherwise one that never sends a greeting would
    /// hold a descriptor for good. Looked at about every 100 ms. So is one
    /// that left part of a message unsent for `messageTimeout` (looked at
    /// every second, across every connection).
    private func closeOverdue() {
        guard now >= nextSweep else { return }
        nextSweep = now &+ 100_000_000
        for peer in greeting.values where now &- peer.opened >= handshakeTimeout {
            peer.drop(PeerProblem(.refused, "no ZMTP handshake within \(limits.handshakeTimeout)"), for: self)
        }
        guard now >= nextStallSweep else { return }
        nextStallSweep = now &+ 1_000_000_000
        for peer in connections.values where !peer.isHeldBack {
            guard let since = peer.stalledSince, now &- since >= messageTimeout else { continue }
            peer.drop(PeerProblem(.stalled, "part of a message waited more than \(limits.messageTimeout) for the rest"), for: self)
        }
    }

    /// Watches a peer for room to write exactly while it has output that
    /// did not fit, and for input unless it is held back.
    func updateInterest(of peer: ZMTPConnection) {
        guard !peer.isClosed else { return }
        if peer.mayChangeHoldBack, peer.updateHoldBack(now: now) {
            heldBack += peer.isHeldBack ? 1 : -1
            if !peer.isHeldBack, !peer.deferred.isEmpty { resumed.append(peer) }
        }
        let input = !peer.isHeldBack
        let output = peer.hasOutput
        guard input != peer.watchesInput || output != peer.watchesOutput else { return }
        peer.watchesInput = input
        peer.watchesOutput = output
        try? events.change(peer.descriptor, key: peer.key, input: input, output: output)
    }

    // MARK: Receiving

    /// The next message a peer sent (routing id first), reading each peer
    /// the last poll found readable once; nil when they are all read.
    ///
    /// A peer held back while its messages are being taken (what it asked
    /// for made too much wait for it: a 30-byte REPLY can bring a 256 KiB
    /// REQUEST) gives no more: the rest of its read is deferred, bounded by
    /// one read, and taken once it is let go.
    public func receive() -> [Frame]? {
        while true {
            if let message = inbox.take() {
                guard heldBack > 0, let sender = inboxPeer, sender.isHeldBack else { return message }
                sender.deferred = [message] + inbox.takeRemaining()
                continue
            }
            if let peer = resumed.popLast() {
                if !peer.isClosed, !peer.isHeldBack {
                    inbox.refill(with: peer.deferred)
                    peer.deferred = []
                    inboxPeer = peer
                }
                continue
            }
            guard let peer = readable.popLast() else { return nil }
            // One held back since the wait found it readable stays unread,
            // as does one whose deferred messages are not all taken.
            if !peer.isClosed, !peer.isHeldBack, peer.deferred.isEmpty {
                inboxPeer = peer
                peer.read(into: scratch, for: self, now: now)
                for new in welcomed where !new.isClosed {
                    if let welcome = roles[new.listener].welcome {
                        new.append(welcome)
                        markDirty(new)
                    }
                }
                welcomed.removeAll()
                // Reading may have queued output (the handshake, PONGs):
                // written by the next flush.
                if peer.hasOutput { markDirty(peer) }
            }
        }
    }

    // MARK: Sending

    /// Queues a message (routing id first) for its peer; false when no peer
    /// has that routing id, or its peer closed its end (`readToTheEnd`).
    /// Written by `flush`.
    public func send(_ frames: [Frame]) -> Bool {
        guard frames.count >= 2, let peer = peers[frames[0]], !peer.isReadOnly else { return false }
        peer.append(frames, from: 1)
        // Held back at once, not at the next flush: its messages still to
        // be taken wait (see `receive`).
        if !peer.isHeldBack, peer.mayChangeHoldBack, peer.updateHoldBack(now: now) { heldBack += 1 }
        markDirty(peer)
        return true
    }

    /// Writes what is queued, without blocking; what does not fit is
    /// written when the peer's poll item says there is room.
    public func flush() {
        for peer in dirty {
            peer.isDirty = false
            if peer.isClosed || peer.isReadOnly { continue }
            if peer.write() { updateInterest(of: peer) } else { writeFailed(peer) }
        }
        dirty.removeAll(keepingCapacity: true)
    }

    /// A write that failed. When the peer closed its end (EPIPE,
    /// ECONNRESET), what it sent before may still wait in the socket,
    /// unread (a worker's last reply, sent just before it exited): that is
    /// read first (`readToTheEnd`). Dropped at once, that reply was lost,
    /// and its client heard "worker gone" instead. Any other failure, or
    /// nothing left to read, drops the peer.
    private func writeFailed(_ peer: ZMTPConnection) {
        guard peer.closedWithInputLeft else { return peer.drop(nil, for: self) }
        readToTheEnd(peer)
    }

    /// A peer that closed its end, with bytes still to read: nothing more
    /// is written to it (what waits is let go of, and `send` refuses it,
    /// as for a peer gone), and it is read in its turn until its socket is
    /// empty, which drops it.
    private func readToTheEnd(_ peer: ZMTPConnection) {
        peer.isReadOnly = true
        peer.session.discardOutput()
        updateInterest(of: peer)  // let go if it was held back, so that it is read
    }

    func markDirty(_ peer: ZMTPConnection) {
        guard !peer.isDirty else { return }
        peer.isDirty = true
        dirty.append(peer)
    }

    // MARK: Closing

    /// Writes what is still queued for up to `timeout`, then closes every
    /// connection and listener. Socket files are the binder's to remove.
    @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
    public func finish(within timeout: Duration) {
        flush()
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while clock.now < deadline {
            let waiting = peers.values.filter { !$0.isClosed && $0.hasOutput }
            if waiting.isEmpty { break }
            var items = waiting.map { pollfd(fd: $0.descriptor, events: Int16(POLLOUT), revents: 0) }
            _ = poll(&items, nfds_t(items.count), 10)
            for peer in waiting where !peer.write() { peer.drop(nil, for: self) }
        }
        close()
    }

    public func close() {
        for peer in connections.values { peer.close() }
        connections.removeAll()
        peers.removeAll()
        greeting.removeAll()
        acceptor.close()
    }
}
