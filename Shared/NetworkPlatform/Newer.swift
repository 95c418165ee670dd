import Domain
import EventBus
import Foundation
import Logging
import Synchronization
import Wire
import ZeroMQ

/// Yields a head only when it is newer than any yielded before (or, from
/// the poll, when the feed began again).
final class Newer: Sendable {
    let continuation: AsyncStream<Int64>.Continuation
    let newest = Atomic<Int64>(-1)

    init(_ continuation: AsyncStream<Int64>.Continuation) { self.continuation = continuation }

    func yield(_ head: Int64) {
        if newest.max(head, ordering: .relaxed).oldValue < head { continuation.yield(head) }
    }

    /// A head the poll read from the feed itself. Notices may come late or
    /// twice, a poll's answer does not: one below the newest yielded is the
    /// feed begun again (a database made anew), passed on and counted from,
    /// so a watcher hears of the new database's changes at once rather than
    /// once its sequences pass the old ones.
    func polled(_ head: Int64) {
        if head < newest.load(ordering: .relaxed) {
            newest.store(head, ordering: .relaxed)
            continuation.yield(head)
        } else {
            yield(head)
        }
    }
}
