import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import Prometheus
import ServiceLifecycle
import Synchronization

/// Connections open, across the endpoint's event loop and its accepts.
final class ConnectionCounter: Sendable {
    private let count = Atomic<Int>(0)
    func open() -> Int { count.add(1, ordering: .relaxed).newValue }
    func close() { count.subtract(1, ordering: .relaxed) }
}
