import Domain
import EventBus
import Foundation
import Logging
import RPCServer
import Tracing
import Wire
import WireTracing
import ZeroMQ
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// The `posts` service's methods (each a use-case call, `PostsMethod.serve`),
/// this process's `posts.health`, and change notices after each write that
/// answered.
struct PostsRouter: Sendable {
    /// Where change notices go after each committed write; nil publishes none.
    let events: EventPublisher?
    let changes: any PostChangesUseCase
    let router: JSONRPCRouter
    let logger: Logger

    init(posts: any PostsUseCase, changes: any PostChangesUseCase, events: EventPublisher?, maxReplyBytes: Int, logger: Logger) {
        (self.changes, self.events) = (changes, events)
        var router = JSONRPCRouter(service: PostsMethod.service, maxReplyBytes: maxReplyBytes) { method, error in
            logger.error("request failed", metadata: ["method": "\(method)", "error": "\(error)"])
        }
        PostsMethod.serve(on: &router, posts: posts, changes: changes)
        router.on(PostsMethod.health) { _, _ in HealthResult(status: "ok", service: PostsMethod.service, pid: getpid()) }
        self.router = router
        self.logger = logger
    }

    nonisolated(nonsending) func handle(_ body: Data) async -> Data {
        await handle(read: JSONRPC.decodeRequest(body))
    }

    /// A request as a worker receives it: read where its frame's bytes are.
    nonisolated(nonsending) func handle(frame: Frame) async -> Data {
        await handle(read: frame.withUnsafeBytes { JSONRPC.decodeRequest(bytes: $0) })
    }

    private nonisolated(nonsending) func handle(read: Result<JSONRPC.IncomingRequest, JSONRPC.RequestFailure>) async -> Data {
        let handled = await router.handle(read: read)
        if handled.wrote {
            // In the request's span: the line carries its trace_id.
            ServiceContext.$current.withValue(handled.context) {
                logger.debug("write applied", metadata: ["method": "\(handled.method ?? "")"])
            }
            await announceChange(context: handled.context)
        }
        return handled.reply
    }

    /// Tells subscribers (search workers) that there is something new to
    /// pull. Best effort by design: a lost notice costs a reader one timer
    /// period, never data, because readers pull `posts.changes`.
    private func announceChange(context: ServiceContext?) async {
        guard let events, let head = try? await changes.headAfterWrite() else { return }
        var meta = RequestMeta()
        if let context { meta.carry(context) }
        let notice = ChangeNotice(service: PostsMethod.service, head: head, traceparent: meta.traceparent, tracestate: meta.tracestate)
        events.publish(topic: notice.topic, body: notice.body)
    }
}
