import EventBus
import Logging
import Majordomo
import ServiceLifecycle

/// Runs the broker under swift-service-lifecycle: SIGTERM/SIGINT become a
/// graceful stop (DISCONNECT to workers), after which the process exits 0.
struct BrokerService: Service {
    let broker: Broker
    let logger: Logger

    func run() async throws {
        let endpoints = try await broker.start()
        logger.info("gateway listening", metadata: ["endpoints": "\(endpoints.joined(separator: ","))"])
        await withTaskCancellationOrGracefulShutdownHandler {
            await broker.waitUntilStopped()
        } onCancelOrGracefulShutdown: {
            broker.stop()
        }
        logger.info("gateway stopped")
    }
}
