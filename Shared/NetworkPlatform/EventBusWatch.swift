import Domain
import EventBus
import Foundation
import Logging
import Synchronization
import Wire
import ZeroMQ

/// Live updates from the gateway's event bus (`posts.changed` notices), and
/// a slow poll besides, since notices are best effort by design. With
/// several gateways each bus tells of each change: `Newer` passes a head on once.
struct EventBusWatch: PostsWatchUseCase {
    /// The buses' subscribe endpoints; none: the poll alone.
    let events: [String]
    /// The connection's context, whose CURVE rule the subscriber follows too.
    let context: Context
    let polling: PollingWatch

    func changes() -> AsyncStream<Int64> {
        let (events, polling, context) = (self.events, self.polling, self.context)
        return AsyncStream { raw in
            // The bus and the poll both tell of a change: pass on each head once.
            let continuation = Newer(raw)
            let subscriber: EventSubscriber? =
                events.isEmpty
                ? nil
                : try? EventSubscriber(
                    endpoints: events, topic: ChangeNotice.topic(of: PostsMethod.service), context: context,
                    logger: Logger(label: "posts.watch")
                ) { _, body in
                    if let notice = ChangeNotice(body: body) { continuation.yield(notice.head) }
                }
            let poll = Task {
                for await head in polling.changes() { continuation.polled(head) }
            }
            raw.onTermination = { _ in
                subscriber?.close()
                poll.cancel()
            }
        }
    }
}
