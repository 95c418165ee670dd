#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Synchronization
import SystemSupport
import ZeroMQ

/// A 7/MDP broker: one ROUTER that clients and workers both connect to
/// (`BrokerTransport`: our own ZMTP on plaintext ipc://, libzmq for the
/// rest), run by `BrokerCore` on a thread of its own.
///
/// Thread rules: the transport is created, used and closed on the
/// broker's thread only. `start`, `stop` and `waitUntilStopped` may be called
/// from anywhere.
public final class Broker: Sendable {
    public struct Options: Sendable {
        public var endpoints: [String]
        public var configuration = BrokerConfiguration()
        /// Largest frame accepted, in bytes (on libzmq, its ZMQ_MAXMSGSIZE, which
        /// applies to each frame); a larger one costs the sender its connection.
        public var maxFrameSize: Int64 = 16 << 20
        /// Bytes waiting for one peer past which it is no longer read (our
        /// own ZMTP on plaintext ipc://): `ZMTP.Limits.maxOutput`.
        public var maxPeerOutput = ZMTP.Limits.defaultMaxOutput
        /// Connections at once on plaintext ipc://, shared with the event
        /// bus; nil: the descriptor limit less a reserve
        /// (`DescriptorLimit.connections`), for the broker alone.
        public var connections: ConnectionBudget?
        /// How long a message may take to arrive whole once it has begun
        /// (plaintext ipc://): `ZMTP.Limits.messageTimeout`.
        public var messageTimeout = ZMTP.Limits.defaultMessageTimeout

        public init(endpoints: [String]) { self.endpoints = endpoints }
    }

    private let options: Options
    private let replies: any BrokerReplies
    private let tracing: (any BrokerTracing)?
    private let context: Context
    private let logger: Logger
    private let waker = Waker()
    private let stopping = Atomic<Bool>(false)
    private let bound = Completion<Result<[String], ZMQError>>()
    private let finished = Completion<Void>()
    /// Lines about what peers did wrong: at most one per second per kind.
    private let limiter = LogLimiter()

    /// `tracing`, when given, records the broker's own span of each request.
    public init(options: Options, replies: any BrokerReplies, tracing: (any BrokerTracing)? = nil, context: Context, logger: Logger) {
        self.options = options
        self.replies = replies
        self.tracing = tracing
        self.context = context
        self.logger = logger
    }

    /// Starts the broker's thread; returns the endpoints bound (wildcard ports
    /// resolved) once it is listening, or throws if an endpoint cannot be bound.
    @discardableResult
    public func start() async throws -> [String] {
        startSocketThread(named: "mdp-broker") { [self] in run() }
        return try await bound.value.get()
    }

    /// Stops taking requests (those waiting, and any that arrive, are told
    /// so), waits up to `shutdownGrace` for requests already with workers,
    /// then sends DISCONNECT to every worker and closes. Any thread.
    public func stop() {
        stopping.store(true, ordering: .releasing)
        waker.wake()
    }

    public func waitUntilStopped() async {
        await finished.value
    }

    /// How often the gauges (queue depths, workers, buffered bytes) are set.
    static let gaugePeriod = Duration.seconds(1)

    private func run() {
        defer { finished.complete(()) }
        let transport: BrokerTransport
        do {
            transport = try BrokerTransport(options: options, context: context, waker: waker.fileDescriptor) { [self] event in
                peerHandshakeFailed(event)
            }
        } catch let error as ZMQError {
            bound.complete(.failure(error))
            return
        } catch {
            bound.complete(.failure(ZMQError(code: -1, operation: "\(error)")))
            return
        }
        bound.complete(.success(transport.endpoints))
        serve(transport)
        transport.close()
        removeIPCFiles(of: transport.endpoints)
    }

    @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
    private func serve(_ transport: BrokerTransport) {
        let clock = ContinuousClock()
        var core = BrokerCore(configuration: options.configuration, replies: replies, now: clock.now)
        core.tracing = tracing
        var drainDeadline: ContinuousClock.Instant?
        var nextGauges = clock.now
        // True when the last batch ended because nothing was left to read:
        // only then may the loop block.
        var idle = false
        while true {
            let now = clock.now
            if drainDeadline == nil, stopping.load(ordering: .acquiring) {
                logger.info(
                    "broker stopping: refusing new requests, waiting for requests in progress",
                    metadata: ["grace": "\(options.configuration.shutdownGrace)"])
                core.beginDrain()
                flush(&core, to: transport, now: now)
                drainDeadline = now + options.configuration.shutdownGrace
            }
            if let deadline = drainDeadline, core.isDrained || now >= deadline {
                answerWhatArrived(&core, transport, clock: clock)
                break
            }
            do {
                let wake = min(core.nextDeadline, drainDeadline ?? core.nextDeadline, nextGauges)
                let timeout = idle && now < wake ? now.duration(to: wake) : .zero
                if try transport.wait(timeout: timeout) { waker.drain() }
                // A bounded batch, so timers still run under a flood. What a
                // message produced is sent before long: a worker's next
                // request must not wait behind a batch of client requests
                // (with one session per worker, that wait is the throughput).
                idle = true
                core.turn &+= 1
                for count in 1...512 {
                    guard let frames = try transport.receive() else { break }
                    let now = clock.now
                    core.handle(frames, now: now)
                    if core.hasOutput { flush(&core, to: transport, now: now) }
                    if count == 512 { idle = false } else if count % 64 == 0 { transport.flush() }
                }
                transport.flush()
            } catch let error as ZMQError where error.isTerminated {
                break
            } catch {
                logger.error("broker loop failed", metadata: ["error": "\(error)"])
                break
            }
            core.totals.malformed += transport.takeDropped()
            for problem in transport.takeProblems() {
                limited(Logger.Message(stringLiteral: problem.kind.rawValue), .warning, ["reason": "\(problem.detail)"])
            }
            let later = clock.now
            if later >= nextGauges {
                core.updateGauges()
                transport.updateGauges(core.metrics)
                nextGauges = later + Self.gaugePeriod
            }
            if later >= core.nextDeadline {
                core.tick(now: later)
                logOverdue()
            }
            if core.hasOutput {
                flush(&core, to: transport, now: later)
                transport.flush()
                idle = false
            }
        }
        logger.info("broker stopped: sending DISCONNECT to workers", metadata: ["workers": "\(core.workers.count)"])
        core.disconnectAll()
        flush(&core, to: transport, now: clock.now)
        transport.flush()
    }

    /// Requests that reached the gateway before it stopped are answered,
    /// not closed away with their connections: what is readable now is read
    /// and answered (refused, "shutting down"; a worker's reply delivered).
    /// A few passes, as reading one connection can find another ready.
    @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
    private func answerWhatArrived(_ core: inout BrokerCore, _ transport: BrokerTransport, clock: ContinuousClock) {
        for _ in 0..<Self.finalPasses {
            var read = 0
            do {
                _ = try transport.wait(timeout: .zero)
                while read < Self.finalPassLimit, let frames = try transport.receive() {
                    core.handle(frames, now: clock.now)
                    read += 1
                }
            } catch {
                break
            }
            flush(&core, to: transport, now: clock.now)
            transport.flush()
            if read == 0 { break }
        }
    }

    static let finalPasses = 8
    /// Messages read per final pass: a flood at shutdown cannot hold the exit up.
    static let finalPassLimit = 4096

    /// Hands what the core produced to the transport. A peer it cannot
    /// reach is reported back, which may produce more to send (its request,
    /// requeued).
    private func flush(_ core: inout BrokerCore, to transport: BrokerTransport, now: ContinuousClock.Instant) {
        // By index, in place: sending may add to the outbox (a request
        // requeued from an unreachable worker), and no copy of it is made.
        var next = 0
        while next < core.outbox.count {
            let message = core.outbox[next]
            next += 1
            do {
                switch try transport.send(message) {
                case .sent: break
                case .highWaterMark:
                    // A tcp:// peer that does not read its replies; rate limited, as it may go on.
                    limited("peer at its high-water mark (it does not read); reply dropped", .warning, ["peer": "\(message[0])"])
                case .unreachable:
                    logger.debug("peer gone; message dropped", metadata: ["peer": "\(message[0])"])
                    core.peerUnreachable(message[0], now: now)
                }
            } catch {
                logger.warning("send failed", metadata: ["peer": "\(message[0])", "error": "\(error)"])
            }
        }
        core.outbox.removeAll(keepingCapacity: true)
        for event in core.takeEvents() { log(event) }
    }

    private func log(_ event: BrokerEvent) {
        switch event {
        case .workerRegistered(let identity, let service):
            logger.info("worker ready", metadata: ["worker": "\(identity)", "service": "\(service)"])
        case .workerLeft(let identity, let service):
            logger.info("worker disconnected", metadata: ["worker": "\(identity)", "service": "\(service)"])
        case .workerExpired(let identity, let service):
            logger.warning("worker expired (silent)", metadata: ["worker": "\(identity)", "service": "\(service)"])
        case .workerUnreachable(let identity, let service):
            logger.warning("worker unreachable; forgotten", metadata: ["worker": "\(identity)", "service": "\(service)"])
        case .requestRequeued(let service):
            logger.info("request handed to another worker", metadata: ["service": "\(service)"])
        case .protocolViolation(let identity, let reason):
            limited("protocol violation; DISCONNECT sent", .warning, ["peer": "\(identity)", "reason": "\(reason)"])
        case .malformed(let sender, let reason):
            limited("malformed message dropped", .warning, ["peer": "\(sender)", "reason": "\(reason)"])
        case .refused(let client, let refusal):
            limited("request refused", .notice, ["client": "\(client)", "refusal": "\(refusal)"])
        }
    }

    /// Logs a line of a kind a peer can cause at will, rate limited per
    /// message: the first at once, then at most one a second, each with the
    /// count of lines left out before it.
    private func limited(_ message: Logger.Message, _ level: Logger.Level, _ metadata: Logger.Metadata) {
        limiter.log(message.description) { suppressed in
            var metadata = metadata
            if suppressed > 0 { metadata["suppressed"] = "\(suppressed)" }
            logger.log(level: level, message, metadata: metadata)
        }
    }

    /// A peer's handshake failed before the ZAP handler (which logs the keys
    /// it refuses) was asked: it came without CURVE, or with the wrong
    /// server key. Rate limited, as a peer can cause it at will.
    private func peerHandshakeFailed(_ event: HandshakeEvent) {
        let reason: String
        switch event {
        case .succeeded, .refused, .closedDuringHandshake: return
        case .mechanismMismatch: reason = "a peer connected without CURVE (no POSTS_CURVE_KEY / POSTS_GATEWAY_KEY); refused"
        case .cryptographic: reason = "a peer's CURVE handshake did not decrypt (its POSTS_GATEWAY_KEY is not this gateway's public key); refused"
        case .protocolError: reason = "\(event); refused"
        }
        limited("security handshake failed", .warning, ["reason": "\(reason)"])
    }

    /// Sums up floods that have stopped: their last second's left-out lines.
    private func logOverdue() {
        for (message, suppressed) in limiter.overdue() {
            logger.warning("\(message): more left out", metadata: ["suppressed": "\(suppressed)"])
        }
    }
}
