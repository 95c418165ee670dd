import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import Prometheus
import ServiceLifecycle
import Synchronization

public struct MetricsEndpointError: Error, CustomStringConvertible {
    public let address: MetricsAddress
    public let reason: String
    public var description: String { "cannot serve metrics at \(address): \(reason)" }
}
