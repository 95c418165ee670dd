import Domain
import EventBus
import Foundation
import Logging
import ZeroMQ

/// Live updates from the gateway's event bus (`posts.changed` notices), and
/// a slow poll besides, since notices are best effort by design.
struct NetworkWatchUseCase: PostsWatchUseCase {
    let events: String?
    let polling: PollingWatch

    func changes() -> AsyncStream<Int64> {
        let (events, polling) = (self.events, self.polling)
        return AsyncStream { continuation in
            let subscriber = events.flatMap { events in
                try? EventSubscriber(endpoint: events, topic: ChangeNotice(service: "posts", head: 0).topic, context: try Context(),
                                     logger: Logger(label: "posts.watch")) { _, body in
                    if let notice = try? JSONDecoder().decode(ChangeNotice.self, from: Data(body)) { continuation.yield(notice.head) }
                }
            }
            let poll = Task {
                for await head in polling.changes() { continuation.yield(head) }
            }
            continuation.onTermination = { _ in
                subscriber?.close()
                poll.cancel()
            }
        }
    }
}
