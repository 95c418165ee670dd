#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Synchronization
import ZeroMQ

/// Receives events of one topic prefix from the gateway's bus on a thread of
/// its own and hands each to `onEvent`. Reconnects by itself (ZeroMQ does),
/// so a restarted gateway only costs the events published meanwhile. With
/// several gateways it subscribes at each, so an event comes once per
/// gateway alive: events must be harmless twice (ours carry sequences).
///
/// Thread rules: the SUB socket lives on the subscriber's own thread;
/// `onEvent` is called on that thread and must not block. Call `close()`
/// when done: the thread keeps the subscriber alive until then.
public final class EventSubscriber: Sendable {
    private let waker = Waker()
    private let closed = Atomic<Bool>(false)

    /// Throws when an endpoint is not a valid ZeroMQ endpoint.
    public init(
        endpoints: [String], topic: String, context: Context, logger: Logger,
        onEvent: @escaping @Sendable (_ topic: String, _ body: [UInt8]) -> Void
    ) throws {
        try context.checkConnectable(endpoints, as: .subscribe)
        startSocketThread(named: "event-subscribe") { [self] in
            let links: BusLinks
            do {
                links = try BusLinks(endpoints: endpoints, topic: topic, context: context)
            } catch {
                logger.error(
                    "cannot subscribe to events", metadata: ["endpoints": "\(endpoints.joined(separator: ","))", "error": "\(error)"])
                return
            }
            while !closed.load(ordering: .acquiring) {
                let messages: [[Frame]]
                do {
                    messages = try links.wait(orWaker: waker, reading: true)
                } catch {
                    logger.error("event subscriber stopped; relying on the timer", metadata: ["error": "\(error)"])
                    break
                }
                for message in messages {
                    guard message.count == 2, let name = message[0].string else { continue }
                    onEvent(name, message[1].bytes)
                }
                links.flush()
            }
            links.close(lingering: .zero)
        }
    }

    public convenience init(
        endpoint: String, topic: String, context: Context, logger: Logger,
        onEvent: @escaping @Sendable (_ topic: String, _ body: [UInt8]) -> Void
    ) throws {
        try self.init(endpoints: [endpoint], topic: topic, context: context, logger: logger, onEvent: onEvent)
    }

    deinit { close() }

    public func close() {
        closed.store(true, ordering: .releasing)
        waker.wake()
    }
}
