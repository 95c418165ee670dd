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
