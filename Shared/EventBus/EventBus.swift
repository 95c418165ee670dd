#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Synchronization
import ZeroMQ

/// The gateway's event bus: publishers connect to an XSUB socket,
/// subscribers to an XPUB socket, and one thread forwards messages down and
/// subscriptions up. Delivery is best effort (a PUB/SUB bus drops for slow
/// subscribers); that is why a notification only says "look", and readers
/// pull what changed (docs/PROTOCOL.md, "Events").
///
/// Thread rules: both sockets live on the bus's own thread.
public final class EventBus: Sendable {
    public struct Options: Sendable {
        /// Where publishers connect (XSUB binds here).
        public var publishEndpoints: [String]
        /// Where subscribers connect (XPUB binds here).
        public var subscribeEndpoints: [String]

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

    public init(options: Options, context: Context, logger: Logger) {
        self.options = options
        self.context = context
        self.logger = logger
    }

    /// Messages forwarded from publishers to subscribers so far.
    public var messagesForwarded: Int { forwarded.load(ordering: .relaxed) }

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
        let upstream: Socket, downstream: Socket
        var endpoints: [String] = []
        do {
            upstream = try Socket(context, .xsubscribe)
            downstream = try Socket(context, .xpublish)
            for endpoint in options.publishEndpoints {
                try upstream.bind(endpoint)
                endpoints.append(upstream.lastEndpoint ?? endpoint)
            }
            for endpoint in options.subscribeEndpoints {
                try downstream.bind(endpoint)
                endpoints.append(downstream.lastEndpoint ?? endpoint)
            }
        } catch {
            bound.complete(.failure(error as? ZMQError ?? ZMQError(code: -1, operation: "\(error)")))
            return
        }
        bound.complete(.success(endpoints))
        var poller = Poller()
        let up = poller.addReadable(upstream)
        let down = poller.addReadable(downstream)
        poller.addReadable(fileDescriptor: waker.fileDescriptor)
        while !stopping.load(ordering: .acquiring) {
            do {
                try poller.poll(timeout: nil)
                waker.drain()
                while poller.isReadable(up), let message = try upstream.receive(wait: false) {
                    try downstream.send(message, wait: false)
                    forwarded.add(1, ordering: .relaxed)
                }
                while poller.isReadable(down), let subscription = try downstream.receive(wait: false) {
                    try upstream.send(subscription, wait: false)
                }
            } catch let error as ZMQError where error.isTerminated {
                break
            } catch {
                logger.error("event bus failed", metadata: ["error": "\(error)"])
                break
            }
        }
        upstream.close()
        downstream.close()
        removeIPCFiles(of: endpoints)
    }
}
