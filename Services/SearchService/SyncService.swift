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
                    // A stop cuts short the page being written, which is rolled
                    // back and applied again at the next start: not a failure.
                    guard !Task.isCancelled else {
                        logger.debug("a page of changes left unwritten at the stop", metadata: ["error": "\(error)"])
                        return
                    }
                    logger.warning("cannot pull changes; trying again", metadata: ["error": "\(error)", "after": "\(interval)"])
                }
            }
        }
    }
}
