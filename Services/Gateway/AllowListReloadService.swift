import Logging
import Majordomo
import ServiceLifecycle
import ServiceSupport
import Synchronization
import UnixSignals
import ZeroMQ

/// Reads the allow-list again on each SIGHUP, until the gateway stops.
struct AllowListReloadService: Service {
    let admission: Admission

    func run() async throws {
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        await cancelWhenGracefulShutdown {
            for await _ in hangups { admission.reload() }
        }
    }
}
