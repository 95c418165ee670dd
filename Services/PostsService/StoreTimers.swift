import CoreMetrics
import Domain

/// One `posts_store_duration_seconds` histogram per store operation.
struct StoreTimers: Sendable {
    static let name = "posts_store_duration_seconds"
    let page = Self.timer("page"), post = Self.timer("post"), save = Self.timer("save"), saveBatch = Self.timer("save_batch")
    let delete = Self.timer("delete"), changes = Self.timer("changes"), head = Self.timer("head")

    private static func timer(_ operation: String) -> CoreMetrics.Timer {
        CoreMetrics.Timer(label: name, dimensions: [("operation", operation)])
    }
}

extension CoreMetrics.Timer {
    /// Runs `body` and records how long it took, failed or not.
    func time<T>(_ body: () async throws(PostsError) -> T) async throws(PostsError) -> T {
        let started = ContinuousClock.now
        defer {
            let elapsed = started.duration(to: .now)
            recordNanoseconds(Int64(elapsed.components.seconds) * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
        }
        return try await body()
    }
}
