import HummingbirdCore
import Logging
import NIOCore

/// Serves each connection on the event loop that reads and writes it: the
/// connection's task prefers an executor over that loop (a task executor,
/// SE-0417), so a request is read, handled and answered on one thread,
/// and what it awaits (the gateway's answer) resumes there too. Without
/// it a request went from the loop to Swift's cooperative pool and its
/// answer back, two thread wake-ups more a request (docs/BENCHMARKS.md,
/// "The HTTP edge, a third time"). Nothing a request runs may block, as
/// everywhere in async code here: it would hold every connection of its
/// loop. The loops are NIO's, one a core.
struct OnItsLoop<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value
    let base: Base
    let executors: LoopExecutors

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> { base.setup(channel: channel, logger: logger) }

    func handle(value: Value, logger: Logger) async {
        await withTaskExecutorPreference(executors.executor(for: value.channel.eventLoop)) {
            await base.handle(value: value, logger: logger)
        }
    }
}

/// An executor over each event loop of a group, made once.
struct LoopExecutors: Sendable {
    private let byLoop: [ObjectIdentifier: LoopExecutor]

    init(_ group: any EventLoopGroup) {
        var byLoop: [ObjectIdentifier: LoopExecutor] = [:]
        for loop in group.makeIterator() { byLoop[ObjectIdentifier(loop)] = LoopExecutor(loop) }
        self.byLoop = byLoop
    }

    /// The executor over `loop`; a new one for a loop not of the group.
    func executor(for loop: any EventLoop) -> LoopExecutor { byLoop[ObjectIdentifier(loop)] ?? LoopExecutor(loop) }
}

/// Runs a task's jobs on one event loop, between its I/O.
final class LoopExecutor: TaskExecutor {
    let loop: any EventLoop

    init(_ loop: any EventLoop) { self.loop = loop }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
