import CoreMetrics
import ZeroMQ

/// The gateway's figures, written through swift-metrics (docs/OPERATIONS.md,
/// "Metrics"). A service is a label only once a worker registered for it,
/// and at most `namedServices` of them: a client's made-up service names
/// all count under `_OTHER`, so no peer can grow the set of series.
/// Broker thread only.
final class BrokerMetrics {
    static let namedServices = 100
    static let other = "_OTHER"

    let unnamed: ServiceMetrics
    private var named: [String: ServiceMetrics] = [:]
    let buffered = Gauge(label: "gateway_output_buffered_bytes")
    let peerBufferedMax = Gauge(label: "gateway_peer_output_buffered_max_bytes")
    let heldBack = Gauge(label: "gateway_peers_held_back")
    let connections = Gauge(label: "gateway_connections")

    init() { unnamed = ServiceMetrics(service: Self.other) }

    /// The figures of a service that has workers.
    func service(named name: String) -> ServiceMetrics {
        if let found = named[name] { return found }
        guard named.count < Self.namedServices else { return unnamed }
        let made = ServiceMetrics(service: name)
        named[name] = made
        return made
    }
}
