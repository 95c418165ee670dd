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
/// so a restarted gateway only costs the events published meanwhile.
///
/// Thread rules: the SUB socket lives on the subscriber's own thread;
/// `onEvent` is called on that thread and must not block. Call `close()`
/// when done: the thread keeps the subscriber alive until then.
public final class EventSubscriber: Sendable {
    private let waker = Waker()
    private let closed = Atomic<Bool>(false)

    /// Throws when `endpoint` is not a valid ZeroMQ endpoint.
    public init(
        endpoint: String, topic: String, context: Context, logger: Logger,
        onEvent: @escaping @Sendable (_ topic: String, _ body: [UInt8]) -> Void
    ) throws {
        try Socket(context, .subscribe).connect(endpoint)
        startSocketThread(named: "event-subscribe") { [self] in
            guard let socket = try? Socket(context, .subscribe),
                (try? socket.set(.subscribe, Array(topic.utf8))) != nil,
                (try? socket.connect(endpoint)) != nil
            else {
                logger.error("cannot subscribe to events", metadata: ["endpoint": "\(endpoint)"])
                return
            }
            var poller = Poller()
            let socketIndex = poller.addReadable(socket)
            poller.addReadable(fileDescriptor: waker.fileDescriptor)
            while !closed.load(ordering: .acquiring) {
                do {
                    try poller.poll(timeout: nil)
                } catch {
                    logger.error("event subscriber stopped; relying on the timer", metadata: ["error": "\(error)"])
                    break
                }
                waker.drain()
                while poller.isReadable(socketIndex), let message = try? socket.receive(wait: false) {
                    guard message.count == 2, let name = message[0].string else { continue }
                    onEvent(name, message[1].bytes)
                }
            }
            socket.close()
        }
    }

    deinit { close() }

    public func close() {
        closed.store(true, ordering: .releasing)
        waker.wake()
    }
}
