import Majordomo
import ServiceLifecycle

/// Runs a `MajordomoWorker` under swift-service-lifecycle: on SIGTERM the
/// worker finishes the request in hand, says DISCONNECT, and the process
/// exits 0.
public struct WorkerService: Service {
    public enum Handler: Sendable {
        case async(MajordomoWorker.Handler)
        case synchronous(MajordomoWorker.SynchronousHandler)
    }

    let worker: MajordomoWorker
    let handler: Handler

    public init(worker: MajordomoWorker, handler: Handler) {
        self.worker = worker
        self.handler = handler
    }

    public func run() async throws {
        try await withTaskCancellationOrGracefulShutdownHandler {
            switch handler {
            case .async(let handle): try await worker.run(handle)
            case .synchronous(let handle): try await worker.run(synchronous: handle)
            }
        } onCancelOrGracefulShutdown: {
            worker.stop()
        }
    }
}
