import CoreMetrics
import Domain
import Synchronization

/// `posts_store_duration_seconds{operation}`: how long each operation of a
/// store (SQLite or PostgreSQL) takes, measured where it reaches the
/// database. The operation is named where it is written, as a literal at
/// its call of `read`, `write` or `statement`, so a new operation is timed
/// with nothing else to change, and the label set is the code's own.
///
/// Given to a platform only by a process that serves metrics (posts-service
/// with `POSTS_METRICS`); a store without one reads no clock.
public final class StoreTimers: Sendable {
    public static let name = "posts_store_duration_seconds"
    private let timers = Mutex<[String: CoreMetrics.Timer]>([:])

    public init() {}

    /// Records the time from `start` to now for `operation`.
    public func record(_ operation: StaticString, since start: ContinuousClock.Instant) {
        let elapsed = start.duration(to: .now)
        let nanoseconds = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
        timer(operation.description).recordNanoseconds(nanoseconds)
    }

    private func timer(_ operation: String) -> CoreMetrics.Timer {
        timers.withLock { timers in
            if let timer = timers[operation] { return timer }
            let timer = CoreMetrics.Timer(label: Self.name, dimensions: [("operation", operation)])
            timers[operation] = timer
            return timer
        }
    }
}

extension Optional where Wrapped == StoreTimers {
    /// `body`, timed as `operation` when there are timers.
    public func measure<T>(_ operation: StaticString, _ body: () throws(PostsError) -> T) throws(PostsError) -> T {
        guard let timers = self else { return try body() }
        let start = ContinuousClock.now
        defer { timers.record(operation, since: start) }
        return try body()
    }

    /// `body`, timed as `operation` when there are timers.
    public func measure<T>(_ operation: StaticString, _ body: () async throws(PostsError) -> T) async throws(PostsError) -> T {
        guard let timers = self else { return try await body() }
        let start = ContinuousClock.now
        defer { timers.record(operation, since: start) }
        return try await body()
    }
}
