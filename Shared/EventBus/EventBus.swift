#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Synchronization
import SystemSupport
import ZeroMQ

/// The gateway's event bus: publishers connect to an XSUB end, subscribers
/// to an XPUB end, and one thread forwards messages down and subscriptions
/// up (`BusTransport`: our own ZMTP on plaintext ipc://, libzmq for the
/// rest). Delivery is best effort (a PUB/SUB bus drops for slow
/// subscribers); that is why a notification only says "look", and readers
/// pull what changed (docs/PROTOCOL.md, "Events").
///
/// Thread rules: the sockets live on the bus's own thread.
public final class EventBus: Sendable {
    public struct Options: Sendable {
        /// Where publishers connect (XSUB binds here).
        public var publishEndpoints: [String]
        /// Where subscribers connect (XPUB binds here).
        public var subscribeEndpoints: [String]
        /// What one peer may send and have waiting, on plaintext ipc://:
        /// notices are small, so frames of at most 64 KiB, 16 to a message.
        public var limits = ZMTP.Limits(maxFrameSize: 64 << 10, maxFrames: 16)
        /// Connections at once on plaintext ipc://, shared with the broker;
        /// nil: the descriptor limit less a reserve.
        public var connections: ConnectionBudget?

        public init(publishEndpoints: [String], subscribeEndpoints: [String]) {
            self.publishEndpoints = publishEndpoints
            self.subscribeEndpoints = subscribeEndpoints
        }
    }

    private let options: Options
    private let context: Context
    private let logger: Logger
    private let stopping = Atomic<Bool>(false)
    private let waker = Waker()
    private let bound = Completion<Result<[String], ZMQError>>()
    private let finished = Completion<Void>()
    private let forwarded = Atomic<Int>(0)
    private let dropped = Atomic<Int>(0)
    /// Lines about what peers did wrong: at most one per second per kind.
    private let limiter = LogLimiter()

    public init(options: Options, context: Context, logger: Logger) {
        self.options = options
        self.context = context
        self.logger = logger
    }

    /// Messages forwarded from publishers to subscribers so far.
    public var messagesForwarded: Int { forwarded.load(ordering: .relaxed) }

    /// Deliveries dropped so far for subscribers with too much waiting
    /// (on plaintext ipc://; libzmq's high-water marks count none).
    public var messagesDropped: Int { dropped.load(ordering: .relaxed) }

    /// Starts the bus's thread; returns the endpoints bound, or throws.
    @discardableResult
    public func start() async throws -> [String] {
        startSocketThread(named: "event-bus") { [self] in run() }
        return try await bound.value.get()
    }

    public func stop() {
        stopping.store(true, ordering: .releasing)
        waker.wake()
    }

    public func waitUntilStopped() async { await finished.value }

    private func run() {
        defer { finished.complete(()) }
        let transport: BusTransport
        do {
            transport = try BusTransport(options: options, context: context, waker: waker.fileDescriptor)
        } catch {
            bound.complete(.failure(error as? ZMQError ?? ZMQError(code: -1, operation: "\(error)")))
            return
        }
        bound.complete(.success(transport.endpoints))
        while !stopping.load(ordering: .acquiring) {
            do {
                if try transport.wait(timeout: .seconds(1)) { waker.drain() }
                try transport.pump()
                forwarded.store(transport.forwarded, ordering: .relaxed)
                dropped.store(transport.dropped, ordering: .relaxed)
            } catch let error as ZMQError where error.isTerminated {
                break
            } catch {
                logger.error("event bus failed", metadata: ["error": "\(error)"])
                break
            }
            // A peer can cause these at will: one line a second per kind.
            for problem in transport.takeProblems() {
                limiter.log(problem.kind.rawValue) { suppressed in
                    logger.warning("event bus: \(problem.kind.rawValue)", metadata: ["reason": "\(problem.detail)", "suppressed": "\(suppressed)"])
                }
            }
        }
        transport.close()
        removeIPCFiles(of: transport.endpoints)
    }
}
