import ZeroMQ

/// A publisher's or a subscriber's connections to the gateways' event
/// buses: our own ZMTP (a `StreamDealer` each, as a PUB or a SUB) where
/// it serves the endpoint (`Context.speaksZMTPItself`), one libzmq socket
/// connected to the rest.
///
/// Thread rules: the publisher's or the subscriber's own thread only.
final class BusLinks {
    private let own: [StreamDealer]
    private let socket: Socket?

    /// A SUB of `topic` when given, a PUB otherwise.
    init(endpoints: [String], topic: String?, context: Context) throws {
        let ownEndpoints = endpoints.filter { context.speaksZMTPItself($0, binding: false) }
        let others = endpoints.filter { !context.speaksZMTPItself($0, binding: false) }
        own = try ownEndpoints.map { endpoint in
            let curve = try context.curveClient(connecting: endpoint)
            if let topic {
                // Events of 64 KiB at most, as the gateway's bus bounds them.
                return StreamDealer(
                    endpoint: endpoint, identity: nil, limits: ZMTP.Limits(maxFrameSize: 64 << 10, maxFrames: 16), curve: curve,
                    socketType: "SUB", peerTypes: ["PUB", "XPUB"], opening: [[Frame([1] + Array(topic.utf8))]])
            }
            // The bus sends a publisher its subscriptions only: small, read and let go.
            return StreamDealer(
                endpoint: endpoint, identity: nil, limits: ZMTP.Limits(maxFrameSize: 64 << 10, maxFrames: 4), curve: curve,
                socketType: "PUB", peerTypes: ["SUB", "XSUB"])
        }
        if others.isEmpty {
            socket = nil
        } else {
            let socket = try Socket(context, topic == nil ? .publish : .subscribe)
            if let topic { try socket.set(.subscribe, Array(topic.utf8)) }
            for endpoint in others { try socket.connect(endpoint) }
            self.socket = socket
        }
    }

    /// Blocks until a bus sent something, `waker` was woken, or a link is
    /// due a look (to connect again); drains `waker`, and returns the
    /// messages that came (a publisher's are its subscriptions, read to be
    /// let go; with `reading` false its libzmq socket is not read).
    @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
    func wait(orWaker waker: Waker, reading: Bool) throws -> [[Frame]] {
        var poller = Poller()
        poller.addReadable(fileDescriptor: waker.fileDescriptor)
        var wake: ContinuousClock.Instant?
        let items = own.map { dealer in
            let (index, deadline) = poller.add(dealer)
            if let deadline { wake = min(wake ?? deadline, deadline) }
            return index
        }
        let socketItem = reading ? socket.map { poller.addReadable($0) } : nil
        try poller.poll(timeout: wake.map { ContinuousClock.now.duration(to: $0) })
        waker.drain()
        var messages: [[Frame]] = []
        for (dealer, item) in zip(own, items) {
            poller.deliver(to: dealer, at: item)
            while let message = dealer.receive() { messages.append(message) }
        }
        if let socket, let socketItem, poller.isReadable(socketItem) {
            while let message = try? socket.receive(wait: false) { messages.append(message) }
        }
        return messages
    }

    /// Sends an event to every bus, never waiting: as libzmq's PUB at its
    /// high-water mark, a bus whose connection has 1 MiB waiting already
    /// (or, not connected, 1,000 events) misses it. Returns the endpoints
    /// of our own ZMTP that missed it (libzmq's PUB does not tell).
    func publish(_ event: [Frame]) -> [String] {
        var missed: [String] = []
        for dealer in own {
            let taken = dealer.backlog < ZMTP.Limits.defaultMaxOutput && dealer.queue(event)
            if !taken { missed.append(dealer.endpoint) }
        }
        _ = try? socket?.send(event, wait: false)
        return missed
    }

    /// Writes what `publish` queued, as much as fits now.
    func flush() { for dealer in own { dealer.flush() } }

    /// Writes what waits for up to `lingering`, then closes.
    func close(lingering: Duration) {
        for dealer in own { dealer.close(lingering: lingering) }
        if let socket {
            try? socket.set(.linger, Int32(lingering / .milliseconds(1)))
            socket.close()
        }
    }
}
