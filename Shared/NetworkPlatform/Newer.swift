import Domain
import EventBus
import Foundation
import Logging
import Synchronization
import Wire
import ZeroMQ

/// Yields a head only when it is newer than any yielded before.
final class Newer: Sendable {
    let continuation: AsyncStream<Int64>.Continuation
    let newest = Atomic<Int64>(-1)

    init(_ continuation: AsyncStream<Int64>.Continuation) { self.continuation = continuation }

    func yield(_ head: Int64) {
        if newest.max(head, ordering: .relaxed).oldValue < head { continuation.yield(head) }
    }
}
