import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import Prometheus
import ServiceLifecycle
import Synchronization

/// The HTTP endpoint Prometheus scrapes (`POSTS_METRICS=host:port`, or
/// `--metrics`): off unless asked for, meant for loopback or a private
/// network. Bounded: at most `maxConnections` at once (more are closed at
/// once), one answer each, and a connection silent for `idleTimeout` is
/// closed; a request head is at most NIO's 80 KB.
public final class MetricsEndpoint: Service {
    public static let maxConnections = 16
    public static let idleTimeout = TimeAmount.seconds(10)

    /// The address it listens on (with the port the system chose, for port 0).
    public let address: MetricsAddress
    private let channel: any Channel
    private let group: MultiThreadedEventLoopGroup
    private let counter: ConnectionCounter

    /// The connections it holds open now.
    public var openConnections: Int { counter.count }

    private init(address: MetricsAddress, channel: any Channel, group: MultiThreadedEventLoopGroup, counter: ConnectionCounter) {
        (self.address, self.channel, self.group, self.counter) = (address, channel, group, counter)
    }

    /// Listens on `address`, or throws saying why it cannot. A connection
    /// silent for `idleTimeout` is closed.
    public static func bind(
        _ address: MetricsAddress, registry: PrometheusCollectorRegistry, logger: Logger, idleTimeout: TimeAmount = MetricsEndpoint.idleTimeout
    ) async throws -> MetricsEndpoint {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let counter = ConnectionCounter()
        do {
            let channel = try await ServerBootstrap(group: group)
                .serverChannelOption(.backlog, value: 16)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    guard counter.open() <= maxConnections else {
                        counter.close()
                        return channel.close()
                    }
                    channel.closeFuture.whenComplete { _ in counter.close() }
                    return channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(IdleStateHandler(allTimeout: idleTimeout))
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                        try channel.pipeline.syncOperations.addHandler(MetricsHTTPHandler(registry: registry))
                    }
                }
                .bind(host: address.host, port: address.port).get()
            let bound = MetricsAddress(host: address.host, port: channel.localAddress?.port ?? address.port)
            logger.info("metrics at http://\(bound)/metrics")
            return MetricsEndpoint(address: bound, channel: channel, group: group, counter: counter)
        } catch {
            try? await group.shutdownGracefully()
            throw MetricsEndpointError(address: address, reason: "\(error)")
        }
    }

    /// Serves until graceful shutdown.
    public func run() async throws {
        await withGracefulShutdownHandler {
            try? await channel.closeFuture.get()
        } onGracefulShutdown: { [channel] in
            channel.close(promise: nil)
        }
        try? await group.shutdownGracefully()
    }

    /// Stops listening (for a process that does not run it as a service).
    public func close() async {
        try? await channel.close()
        try? await group.shutdownGracefully()
    }
}

public struct MetricsEndpointError: Error, CustomStringConvertible {
    public let address: MetricsAddress
    public let reason: String
    public var description: String { "cannot serve metrics at \(address): \(reason)" }
}
