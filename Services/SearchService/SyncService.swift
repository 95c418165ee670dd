import ArgumentParser
import Domain
import EventBus
import Foundation
import LocalPlatform
import Logging
import Tracing
import Observability
import Majordomo
import NetworkPlatform
import ServiceLifecycle
import ServiceSupport
import Wire
import ZeroMQ

/// Runs the index sync until the process is asked to stop.
struct SyncService: Service {
    let sync: IndexSync
    let interval: Duration
    let logger: Logger

    func run() async throws {
        // Background pulls are not traced (a trace a second); a change's
        // apply is, in the trace of the write that made it (NoticeTraces).
        await ServiceContext.$current.withValue(TracingStart.unsampled()) {
            await cancelWhenGracefulShutdown {
                await sync.run(interval: interval) { error in
                    logger.warning("cannot pull changes; trying again", metadata: ["error": "\(error)", "after": "\(interval)"])
                }
            }
        }
    }
}
