import CoreMetrics
import Domain
import Foundation
import Tracing

/// Domain's `SearchIndex` port, noting as each change is applied how long
/// after its save it became searchable here (`search_index_delay_seconds`:
/// from the post's updateDate, by this host's clock, so clock skew between
/// hosts is in it) and the sequence applied (`search_applied_sequence`).
///
/// Each apply is also a span (`search.apply`) in the trace of every traced
/// write it makes searchable here (`NoticeTraces`).
struct MeasuredSearchIndex: SearchIndex {
    let index: any SearchIndex
    let traces: NoticeTraces
    private let delay = CoreMetrics.Timer(label: "search_index_delay_seconds")
    private let applied = Gauge(label: "search_applied_sequence")

    init(_ index: any SearchIndex, traces: NoticeTraces) { (self.index, self.traces) = (index, traces) }

    func position() async throws(PostsError) -> IndexPosition { try await index.position() }

    func apply(_ changes: [PostChange], position: IndexPosition) async throws(PostsError) {
        let spans = traces.covered(upTo: position.applied).map { context in
            let span = InstrumentationSystem.tracer.startSpan("search.apply", context: context, ofKind: .consumer)
            span.attributes["search.changes"] = changes.count
            span.attributes["search.applied"] = Int(position.applied)
            return span
        }
        defer { for span in spans { span.end() } }
        do {
            try await index.apply(changes, position: position)
        } catch {
            for span in spans { span.recordError(error) }
            throw error
        }
        let now = Date()
        for change in changes {
            guard case .upsert(let post) = change.kind else { continue }
            delay.recordNanoseconds(Int64(max(0, now.timeIntervalSince(post.updateDate)) * 1e9))
        }
        applied.record(position.applied)
    }

    func reset(database: String?) async throws(PostsError) { try await index.reset(database: database) }
    func documentCount() async throws(PostsError) -> Int { try await index.documentCount() }
    func compact() async throws(PostsError) { try await index.compact() }
    func keepForNextProcess() async throws(PostsError) { try await index.keepForNextProcess() }
    func settle() async throws(PostsError) { try await index.settle() }
}
