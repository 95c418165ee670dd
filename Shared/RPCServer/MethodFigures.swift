import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import Wire

/// A router's methods' figures, shared by the router and its `rpc.stats`
/// handler (which is registered before the methods it reports on).
@usableFromInline final class MethodFigures: Sendable {
    private let methods = Mutex<[MethodMetrics]>([])

    @usableFromInline func add(_ metrics: MethodMetrics) { methods.withLock { $0.append(metrics) } }

    /// Every method asked for at least once, and every method registered.
    func stats() -> ServerStats {
        let all = methods.withLock { $0 }.map(\.stats).filter { $0.requests > 0 || $0.method != MethodMetrics.other }
        return ServerStats(pid: ProcessInfo.processInfo.processIdentifier, methods: all.sorted { $0.method < $1.method })
    }
}
