import EventBus
import Logging
import Majordomo
import ServiceLifecycle

/// Runs the event bus next to the broker; stops with it.
struct EventBusService: Service {
    let bus: EventBus
    let logger: Logger

    func run() async throws {
        let endpoints = try await bus.start()
        logger.info("event bus listening", metadata: ["endpoints": "\(endpoints.joined(separator: ","))"])
        await withTaskCancellationOrGracefulShutdownHandler {
            await bus.waitUntilStopped()
        } onCancelOrGracefulShutdown: {
            bus.stop()
        }
    }
}
