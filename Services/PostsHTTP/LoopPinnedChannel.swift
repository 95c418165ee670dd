import HummingbirdCore
import Logging
import HummingbirdTLS
import NIOCore
import NIOSSL

/// A connection's whole life, reading requests, running their handlers and
/// writing their responses, on the event loop its socket lives on.
///
/// Hummingbird runs each connection as a task on Swift's global pool. Each
/// request then crosses threads twice: the event loop reads it and wakes a
/// pool thread, and the pool thread's response is handed back to the event
/// loop to write. On a small machine each crossing is a wake-up that costs
/// more than the handler (docs/BENCHMARKS.md, "The HTTP edge"). With the
/// connection's task preferring its own event loop, both are a call on the
/// same thread. Handlers here never block (they await the gateway), so the
/// loop stays free for the other connections on it.
struct LoopPinnedChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value
    let base: Base

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await withTaskExecutorPreference(LoopExecutor(loop: value.channel.eventLoop)) {
            await base.handle(value: value, logger: logger)
        }
    }
}

/// Runs a task's jobs on one event loop (a `TaskExecutor`): a job enqueued
/// on the loop's own thread runs after the current one without waking it.
final class LoopExecutor: TaskExecutor {
    let loop: any EventLoop

    init(loop: any EventLoop) { self.loop = loop }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

extension HTTPServerBuilder {
    /// A builder whose every connection runs on its event loop
    /// (`LoopPinnedChannel`); `tls` puts TLS in front of HTTP/1.1.
    static func pinnedHTTP1(configuration: HTTP1Channel.Configuration, tls: TLSConfiguration?) -> HTTPServerBuilder {
        .init { responder in
            let http = HTTP1Channel(responder: responder, configuration: configuration)
            guard let tls else { return LoopPinnedChannel(base: http) }
            return LoopPinnedChannel(base: try TLSChannel(http, tlsConfiguration: tls))
        }
    }
}
