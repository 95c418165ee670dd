#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Taking connections within bounds: at most `maxConnections` at once, and
/// no busy loop when the process is out of descriptors. Past either limit
/// the router closes the new connection at once (the peer sees it closed,
/// rather than waiting in the backlog), reports it, and stops watching its
/// listeners for `restInterval`; connected peers are served meanwhile.
extension StreamRouter {
    static let restInterval = Duration.milliseconds(100)

    /// A descriptor to keep in reserve (-1 when none could be had).
    static func openReserve() -> Int32 {
        open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    func accept(from index: Int) {
        let listener = listeners[index]
        defer { if turnedAway > 0 { reportTurnedAway() } }
        while true {
            switch listener.accept() {
            case .none:
                return
            case .connection(let descriptor):
                guard connections.count < maxConnections else {
                    _ = Glibc.close(descriptor)
                    turnedAway += 1
                    continue
                }
                admit(descriptor)
            case .exhausted(let code):
                // The backlog's first connection holds the listener readable:
                // closed through the reserve, so the peer hears of it.
                if reserve >= 0 {
                    _ = Glibc.close(reserve)
                    if case .connection(let descriptor) = listener.accept() { _ = Glibc.close(descriptor) }
                    reserve = Self.openReserve()
                }
                problems.append(PeerProblem(.descriptors, "accept on \(listener.endpoint): \(String(cString: strerror(code))); "
                                                + "\(connections.count) connections open; not accepting for \(Self.restInterval)"))
                rest()
                return
            }
        }
    }

    private func reportTurnedAway() {
        problems.append(PeerProblem(.connectionLimit, "\(turnedAway) new connection(s) closed at once: \(connections.count) are open, "
                                        + "the limit is \(maxConnections); not accepting for \(Self.restInterval)"))
        turnedAway = 0
        rest()
    }

    private func admit(_ descriptor: Int32) {
        let peer = ZMTPConnection(descriptor: descriptor, socketType: "ROUTER", peerTypes: ZMTP.routerPeers, limits: limits)
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

    /// Stops watching the listeners for `restInterval`.
    private func rest() {
        guard listenersResting == nil else { return }
        listenersResting = ContinuousClock.now + Self.restInterval
        for (index, listener) in listeners.enumerated() {
            try? events.change(listener.descriptor, key: Self.listenerKeys + UInt64(index), input: false, output: false)
        }
    }

    /// Watches the listeners again once their rest is over.
    func wakeListeners() {
        guard let until = listenersResting, ContinuousClock.now >= until else { return }
        listenersResting = nil
        for (index, listener) in listeners.enumerated() {
            try? events.change(listener.descriptor, key: Self.listenerKeys + UInt64(index), output: false)
        }
    }
}
