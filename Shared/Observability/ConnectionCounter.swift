import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import Prometheus
import ServiceLifecycle
import Synchronization

/// Connections open, across the endpoint's event loop and its accepts.
final class ConnectionCounter: Sendable {
    private let value = Atomic<Int>(0)
    func open() -> Int { value.add(1, ordering: .relaxed).newValue }
    func close() { value.subtract(1, ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
}
