import EventBus
import Synchronization
import Tracing
import Wire
import WireTracing

/// The trace contexts of change notices heard and not yet applied, newest
/// `limit` kept: each replica's apply of a traced write is a span in that
/// write's trace.
///
/// A replica may pull a change before it hears the notice of it (its timer
/// runs too): a notice of a change already applied is answered at once
/// with a span of its own, marked `search.already_applied`.
final class NoticeTraces: Sendable {
    static let limit = 64
    private let state = Mutex<(pending: [(head: Int64, context: ServiceContext)], applied: Int64)>(([], 0))

    func heard(_ notice: ChangeNotice) {
        guard notice.traceparent != nil else { return }
        let context = RequestMeta(traceparent: notice.traceparent, tracestate: notice.tracestate).context
        let late = state.withLock { state in
            guard notice.head > state.applied else { return true }
            state.pending.append((notice.head, context))
            if state.pending.count > Self.limit { state.pending.removeFirst(state.pending.count - Self.limit) }
            return false
        }
        if late {
            let span = InstrumentationSystem.tracer.startSpan("search.apply", context: context, ofKind: .consumer)
            span.attributes["search.already_applied"] = true
            span.end()
        }
    }

    /// The contexts of the notices an apply up to `applied` covers, taken
    /// out; from now on a notice up to `applied` is late.
    func covered(upTo applied: Int64) -> [ServiceContext] {
        state.withLock { state in
            state.applied = max(state.applied, applied)
            let covered = state.pending.filter { $0.head <= applied }.map(\.context)
            state.pending.removeAll { $0.head <= applied }
            return covered
        }
    }
}
