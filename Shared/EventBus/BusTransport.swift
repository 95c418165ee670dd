import ZeroMQ

/// The event bus's sockets, as one bus over two transports: our own ZMTP
/// (`StreamRouter`, with an XSUB listener for publishers and an XPUB one
/// for subscribers) on plaintext ipc:// and tcp://, and libzmq's XSUB and
/// XPUB for the rest (`Context.speaksZMTPItself`). Either may be absent. What any publisher sends
/// goes to every subscriber of either transport whose subscription matches.
///
/// On our own transport every publisher is asked for everything and
/// subscriptions are matched here; a subscriber with more than
/// `limits.maxOutput` bytes waiting loses what comes meanwhile (counted), as
/// at a PUB's high-water mark: notices say only "look", so a lost one is
/// made up by the reader's timer. libzmq's sockets apply their own
/// high-water marks. Why our own at all: libzmq aborts when its ipc://
/// listener meets a process out of descriptors; ours rests instead, within
/// the gateway's connection budget.
///
/// Thread rules: the bus's thread only.
final class BusTransport {
    /// Prefixes one subscriber may hold; more are ignored.
    static let subscriptionLimit = 100

    let stream: StreamRouter?
    private let upstream: Socket?
    private let downstream: Socket?
    let endpoints: [String]
    private let waker: Int32
    private var wakerKey: UInt64 = 0
    /// Each subscriber of our own transport: its prefixes.
    private var subscriptions: [Frame: [[UInt8]]] = [:]
    /// A libzmq socket may hold messages until a receive found none.
    private var socketsDrained = false
    private(set) var forwarded = 0
    private(set) var dropped = 0
    private var problems: [PeerProblem] = []

    init(options: EventBus.Options, context: Context, waker: Int32) throws {
        self.waker = waker
        let isOwn = { context.speaksZMTPItself($0, binding: true) }
        let all = options.publishEndpoints + options.subscribeEndpoints
        let stream =
            all.contains(where: isOwn)
            ? try StreamRouter(limits: options.limits, budget: options.connections ?? .withinDescriptorLimit())
            : nil
        let upstream = options.publishEndpoints.contains { !isOwn($0) } ? try Socket(context, .xsubscribe) : nil
        let downstream = options.subscribeEndpoints.contains { !isOwn($0) } ? try Socket(context, .xpublish) : nil
        var endpoints: [String] = []
        let sides: [([String], StreamRouter.Role, Socket?)] = [
            (options.publishEndpoints, .publishers, upstream),
            (options.subscribeEndpoints, .subscribers, downstream),
        ]
        for (side, role, socket) in sides {
            for endpoint in side {
                if isOwn(endpoint), let stream {
                    endpoints.append(try stream.bind(endpoint, as: role, curve: context.curveServer(binding: endpoint)))
                } else if let socket {
                    try socket.bind(endpoint)
                    endpoints.append(socket.lastEndpoint ?? endpoint)
                }
            }
        }
        // Publishers over libzmq send everything: our subscribers' prefixes are matched here.
        try upstream?.send([Frame([1])], wait: false)
        self.stream = stream
        self.upstream = upstream
        self.downstream = downstream
        self.endpoints = endpoints
        if let stream {
            wakerKey = try stream.watch(waker)
            for socket in [upstream, downstream].compactMap({ $0 }) { _ = try stream.watch(try socket.get(.fileDescriptor)) }
        }
    }

    /// Waits until something arrives, `waker` is readable, or `timeout`
    /// passes; returns whether `waker` was readable.
    @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
    func wait(timeout: Duration) throws -> Bool {
        let hasSockets = upstream != nil || downstream != nil
        if let stream {
            try stream.wait(timeout: hasSockets && !socketsDrained ? .zero : timeout)
            socketsDrained = false
            return stream.isReady(wakerKey)
        }
        var poller = Poller()
        let sockets = [upstream, downstream].compactMap { $0 }
        for socket in sockets { poller.addReadable(socket) }
        poller.addReadable(fileDescriptor: waker)
        socketsDrained = false
        return try poller.poll(timeout: timeout) > 0
    }

    /// Moves everything that arrived: messages down to subscribers,
    /// subscriptions up to libzmq's publishers.
    func pump() throws {
        if let stream {
            while let message = stream.receive() {
                // A subscriber that left, and one that came back under its
                // routing id, are told apart before its next message.
                forgetDeparted(stream)
                // A connection closed since its message was read has no role:
                // its message is not taken as anyone's.
                switch stream.role(of: message[0]) {
                case .subscribers?: subscribe(message[0], message.dropFirst().first)
                case .publishers?: try publish(Array(message.dropFirst()))
                default: continue
                }
            }
            forgetDeparted(stream)
        }
        if let upstream {
            while let message = try upstream.receive(wait: false) { try publish(message) }
        }
        if let downstream, let upstream {
            while let subscription = try downstream.receive(wait: false) { try upstream.send(subscription, wait: false) }
        } else if let downstream {
            while try downstream.receive(wait: false) != nil {}
        }
        socketsDrained = true
        stream?.flush()
    }

    private func forgetDeparted(_ stream: StreamRouter) {
        for gone in stream.takeDeparted() { subscriptions[gone] = nil }
    }

    private func publish(_ message: [Frame]) throws {
        guard let topic = message.first else { return }
        forwarded += 1
        if let downstream {
            socketsDrained = false
            _ = try downstream.send(message, wait: false)
        }
        guard let stream else { return }
        for (subscriber, prefixes) in subscriptions where topic.withUnsafeBytes({ bytes in prefixes.contains { bytes.starts(with: $0) } }) {
            if (stream.queuedBytes(of: subscriber) ?? 0) > stream.limits.maxOutput {
                dropped += 1
                problems.append(
                    PeerProblem(
                        .subscriberBehind,
                        "subscriber \(subscriber) has more than \(stream.limits.maxOutput) bytes "
                            + "waiting; \(dropped) events dropped so far"))
            } else {
                _ = stream.send([subscriber] + message)
            }
        }
    }

    /// A subscriber's message: 1 and a prefix to subscribe, 0 and one to cancel.
    private func subscribe(_ subscriber: Frame, _ frame: Frame?) {
        guard let bytes = frame?.bytes, let kind = bytes.first else { return }
        let prefix = Array(bytes.dropFirst())
        var prefixes = subscriptions[subscriber] ?? []
        if kind == 1 {
            guard prefixes.count < Self.subscriptionLimit else {
                problems.append(PeerProblem(.refused, "subscriber \(subscriber) asked for more than \(Self.subscriptionLimit) subscriptions"))
                return
            }
            prefixes.append(prefix)
        } else if kind == 0, let index = prefixes.firstIndex(of: prefix) {
            prefixes.remove(at: index)
        }
        subscriptions[subscriber] = prefixes
    }

    func takeProblems() -> [PeerProblem] {
        defer { problems.removeAll() }
        return problems + (stream?.takeProblems() ?? [])
    }

    func close() {
        stream?.finish(within: .milliseconds(200))
        upstream?.close()
        downstream?.close()
    }
}
