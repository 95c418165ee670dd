#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// A ZeroMQ ROUTER for plaintext ipc:// endpoints, speaking ZMTP 3.1 itself
/// on Unix-domain sockets, driven by its owner's poll loop: libzmq peers
/// (DEALER, REQ, ROUTER) connect to it as to a libzmq ROUTER.
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
/// high-water mark (the owner bounds what it queues).
///
/// Thread rules: one thread, the owner's, makes it, polls it and closes it.
public final class StreamRouter {
    private let limits: ZMTP.Limits
    private var listeners: [UnixListener] = []
    private var peers: [Frame: ZMTPConnection] = [:]
    /// Peers still in their handshake, which have no routing id yet.
    private var greeting: [ObjectIdentifier: ZMTPConnection] = [:]
    private var nextNumber = UInt32.random(in: .min ... .max)
    /// Where each read lands first; only a partial frame is kept per peer.
    private let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
    /// The peers of the last poll, in the order of their poll items.
    private var polled: [ZMTPConnection] = []
    private var readable: [ZMTPConnection] = []
    private var inbox: [[Frame]] = []
    private var inboxNext = 0
    private var dirty: [ZMTPConnection] = []
    /// What peers did wrong, for the owner to log: connections refused
    /// or dropped, messages dropped.
    private var problems: [PeerProblem] = []
    private var droppedMessages = 0

    public init(limits: ZMTP.Limits) { self.limits = limits }

    deinit {
        close()
        scratch.deallocate()
    }

    /// Whether `endpoint` is one this router can serve (ipc://, not the
    /// wildcard ipc://*, which only libzmq resolves).
    public static func serves(_ endpoint: String) -> Bool {
        endpoint.hasPrefix("ipc://") && endpoint != "ipc://*"
    }

    /// Listens on `endpoint`; throws naming it and the reason.
    public func bind(_ endpoint: String) throws {
        listeners.append(try UnixListener(endpoint: endpoint))
    }

    /// Whether a peer of this router has `routingID`.
    public func owns(_ routingID: Frame) -> Bool { peers[routingID] != nil }

    public var peerCount: Int { peers.count }

    public func takeProblems() -> [PeerProblem] {
        defer { problems.removeAll() }
        return problems
    }

    /// Messages dropped for having more frames than the limit, since last asked.
    public func takeDropped() -> Int {
        defer { droppedMessages = 0 }
        return droppedMessages
    }

    // MARK: Polling

    /// Appends the poll items this router needs: each listener, and each
    /// peer (for output too when it has some that did not fit).
    public func addPollItems(to items: inout [pollfd]) {
        for listener in listeners { items.append(pollfd(fd: listener.descriptor, events: Int16(POLLIN), revents: 0)) }
        polled.removeAll(keepingCapacity: true)
        for peer in peers.values { add(peer, to: &items) }
        for peer in greeting.values { add(peer, to: &items) }
    }

    private func add(_ peer: ZMTPConnection, to items: inout [pollfd]) {
        polled.append(peer)
        let events = Int16(POLLIN) | (peer.hasOutput ? Int16(POLLOUT) : 0)
        items.append(pollfd(fd: peer.descriptor, events: events, revents: 0))
    }

    /// Takes the results of the items `addPollItems` appended: accepts new
    /// connections, writes where there is room, and notes who sent
    /// something, for `receive` to read.
    public func handle(_ items: UnsafeBufferPointer<pollfd>) {
        for (listener, item) in zip(listeners, items) where item.revents & Int16(POLLIN) != 0 {
            while let descriptor = listener.accept() {
                let peer = ZMTPConnection(descriptor: descriptor, socketType: "ROUTER", peerTypes: ZMTP.routerPeers, limits: limits)
                greeting[ObjectIdentifier(peer)] = peer
                markDirty(peer)
            }
        }
        for (peer, item) in zip(polled, items.dropFirst(listeners.count)) where item.revents != 0 && !peer.isClosed {
            if item.revents & Int16(POLLOUT) != 0, !peer.write() { peer.drop(nil, for: self) }
            if item.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0, !peer.isClosed { readable.append(peer) }
        }
        polled.removeAll(keepingCapacity: true)
    }

    // MARK: Receiving

    /// The next message a peer sent (routing id first), reading each peer
    /// the last poll found readable once; nil when they are all read.
    public func receive() -> [Frame]? {
        while true {
            if inboxNext < inbox.count {
                defer { inboxNext += 1 }
                return inbox[inboxNext]
            }
            inbox.removeAll(keepingCapacity: true)
            inboxNext = 0
            guard let peer = readable.popLast() else { return nil }
            if !peer.isClosed { peer.read(into: scratch, for: self) }
        }
    }

    // MARK: Sending

    /// Queues a message (routing id first) for its peer; false when no peer
    /// has that routing id. Written by `flush`.
    public func send(_ frames: [Frame]) -> Bool {
        guard frames.count >= 2, let peer = peers[frames[0]] else { return false }
        peer.append(frames, from: 1)
        markDirty(peer)
        return true
    }

    /// Writes what is queued, without blocking; what does not fit is
    /// written when the peer's poll item says there is room.
    public func flush() {
        for peer in dirty {
            peer.isDirty = false
            if !peer.isClosed, !peer.write() { peer.drop(nil, for: self) }
        }
        dirty.removeAll(keepingCapacity: true)
    }

    private func markDirty(_ peer: ZMTPConnection) {
        guard !peer.isDirty else { return }
        peer.isDirty = true
        dirty.append(peer)
    }

    // MARK: Closing

    /// Writes what is still queued for up to `timeout`, then closes every
    /// connection and listener. Socket files are the binder's to remove.
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
        for peer in Array(peers.values) + Array(greeting.values) { peer.close() }
        peers.removeAll()
        greeting.removeAll()
        for listener in listeners { listener.close() }
        listeners.removeAll()
    }
}

extension StreamRouter: ZMTPReceiver {
    /// Gives the peer its routing id: its Identity, or one made here.
    func ready(_ peer: ZMTPConnection, metadata: UnsafeRawBufferPointer) -> String? {
        let identity = ZMTP.property("Identity", in: metadata) ?? []
        var routingID: Frame
        if identity.isEmpty {
            repeat {
                nextNumber &+= 1
                routingID = Frame([0, 1] + withUnsafeBytes(of: nextNumber.bigEndian, Array.init))
            } while peers[routingID] != nil
        } else {
            // As libzmq: a routing id starting with a zero byte is reserved
            // for those made here, and one already connected is refused.
            routingID = Frame(identity)
            if identity[0] == 0 { return "its routing id \(routingID) is reserved (it starts with a zero byte)" }
            if peers[routingID] != nil { return "its routing id \(routingID) is already connected" }
        }
        greeting[ObjectIdentifier(peer)] = nil
        peers[routingID] = peer
        peer.prefix = routingID
        return nil
    }

    func message(_ peer: ZMTPConnection, _ frames: [Frame]) { inbox.append(frames) }

    func dropped(_ peer: ZMTPConnection, frames: Int) {
        droppedMessages += 1
        report(peer, PeerProblem(.tooManyFrames, "a message of \(frames) frames (at most \(limits.maxFrames))"))
    }

    func report(_ peer: ZMTPConnection, _ problem: PeerProblem) {
        problems.append(peer.prefix.map { PeerProblem(problem.kind, "\(problem.detail) (peer \($0))") } ?? problem)
    }

    func closed(_ peer: ZMTPConnection) {
        if let routingID = peer.prefix, peers[routingID] === peer { peers[routingID] = nil }
        greeting[ObjectIdentifier(peer)] = nil
    }
}
