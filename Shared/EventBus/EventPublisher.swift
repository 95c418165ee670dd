#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Synchronization
import SystemSupport
import ZeroMQ

/// Publishes events to the gateway's bus from any thread, without ever
/// blocking the caller: events queue in a mailbox (at most `capacity`; the
/// oldest go first when it is full) and a socket thread sends them. With
/// several gateways it connects to each bus, and every event goes to all
/// of them: a subscriber hears it while any of those gateways lives.
///
/// Thread rules: the PUB socket lives on the publisher's own thread.
public final class EventPublisher: Sendable {
    public static let capacity = 1000

    private let endpoints: [String]
    private let context: Context
    private let logger: Logger
    private let mailbox = Mutex<[[Frame]]>([])
    private let waker = Waker()
    private let closed = Atomic<Bool>(false)
    private let missed = Atomic<Int>(0)
    private let limiter = LogLimiter()

    /// Events a bus missed because it did not keep up (1 MiB waited for it
    /// already, or 1,000 events while not connected), one for each bus and
    /// event. Its subscribers still catch up: they pull the changes an
    /// event announces (`posts.changes`), at the latest at their next pull.
    public var eventsMissed: Int { missed.load(ordering: .relaxed) }

    /// Throws when an endpoint is not a valid ZeroMQ endpoint.
    public init(endpoints: [String], context: Context, logger: Logger) throws {
        try context.checkConnectable(endpoints, as: .publish)
        self.endpoints = endpoints
        self.context = context
        self.logger = logger
        startSocketThread(named: "event-publish") { [self] in run() }
    }

    public convenience init(endpoint: String, context: Context, logger: Logger) throws {
        try self.init(endpoints: [endpoint], context: context, logger: logger)
    }

    deinit { close() }

    public func publish(topic: String, body: [UInt8]) {
        mailbox.withLock { queue in
            if queue.count >= Self.capacity { queue.removeFirst() }
            queue.append([Frame(topic), Frame(body)])
        }
        waker.wake()
    }

    public func close() {
        closed.store(true, ordering: .releasing)
        waker.wake()
    }

    private func run() {
        let links: BusLinks
        do {
            links = try BusLinks(endpoints: endpoints, topic: nil, context: context)
        } catch {
            logger.error("cannot connect the event publisher", metadata: ["endpoints": "\(endpoints.joined(separator: ","))", "error": "\(error)"])
            return
        }
        while !closed.load(ordering: .acquiring) {
            do {
                _ = try links.wait(orWaker: waker, reading: false)  // the buses' subscriptions: every event goes to every bus
            } catch {
                logger.error("event publisher stopped", metadata: ["error": "\(error)"])
                break
            }
            // Never blocks: a bus that does not keep up misses events (BusLinks.publish).
            for event in mailbox.withLock({ queue in
                defer { queue.removeAll() }; return queue
            }) {
                for endpoint in links.publish(event) { noteMissed(at: endpoint) }
            }
            links.flush()
        }
        links.close(lingering: .milliseconds(200))
    }

    /// Counts an event a bus missed; says so at most once a second per bus.
    private func noteMissed(at endpoint: String) {
        missed.add(1, ordering: .relaxed)
        limiter.log("missed \(endpoint)") { suppressed in
            logger.warning(
                "an event bus does not keep up; events to it are dropped (its subscribers pull the changes instead)",
                metadata: ["endpoint": "\(endpoint)", "suppressed": "\(suppressed)"])
        }
    }
}
