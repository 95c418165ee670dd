import CoreMetrics
import Domain
import Foundation

/// Domain's `SearchIndex` port, noting as each change is applied how long
/// after its save it became searchable here (`search_index_delay_seconds`:
/// from the post's updateDate, by this host's clock, so clock skew between
/// hosts is in it) and the sequence applied (`search_applied_sequence`).
struct MeasuredSearchIndex: SearchIndex {
    let index: any SearchIndex
    private let delay = CoreMetrics.Timer(label: "search_index_delay_seconds")
    private let applied = Gauge(label: "search_applied_sequence")

    init(_ index: any SearchIndex) { self.index = index }

    func position() async throws(PostsError) -> IndexPosition { try await index.position() }

    func apply(_ changes: [PostChange], position: IndexPosition) async throws(PostsError) {
        try await index.apply(changes, position: position)
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
}
