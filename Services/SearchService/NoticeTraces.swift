import EventBus
import Synchronization
import Tracing
import Wire

/// The trace contexts of change notices heard and not yet applied, newest
/// `limit` kept: each replica's apply of a traced write is a span in that
/// write's trace.
final class NoticeTraces: Sendable {
    static let limit = 64
    private let pending = Mutex<[(head: Int64, context: ServiceContext)]>([])

    func heard(_ notice: ChangeNotice) {
        guard notice.traceparent != nil else { return }
        let context = RequestMeta(traceparent: notice.traceparent, tracestate: notice.tracestate).context
        pending.withLock { pending in
            pending.append((notice.head, context))
            if pending.count > Self.limit { pending.removeFirst(pending.count - Self.limit) }
        }
    }

    /// The contexts of the notices an apply up to `applied` covers, taken out.
    func covered(upTo applied: Int64) -> [ServiceContext] {
        pending.withLock { pending in
            let covered = pending.filter { $0.head <= applied }.map(\.context)
            pending.removeAll { $0.head <= applied }
            return covered
        }
    }
}
