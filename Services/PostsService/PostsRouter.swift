import Domain
import EventBus
import Foundation
import Logging
import Tracing
import Wire
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// The `posts` service's methods (PostsMethod), each a use-case call, and
/// change notices after each write that answered.
struct PostsRouter: Sendable {
    /// Where change notices go after each committed write; nil publishes none.
    let events: EventPublisher?
    let changes: any PostChangesUseCase
    let router: JSONRPCRouter

    init(posts: any PostsUseCase, changes: any PostChangesUseCase, events: EventPublisher?, maxReplyBytes: Int, logger: Logger) {
        (self.changes, self.events) = (changes, events)
        var router = JSONRPCRouter(service: PostsMethod.service, maxReplyBytes: maxReplyBytes) { method, error in
            logger.error("request failed", metadata: ["method": "\(method)", "error": "\(error)"])
        }
        router.onReply(PostsMethod.list) { params, call in
            try await call.fitted(limit: params.limit ?? PostRules.defaultPageSize) { limit in
                let page = try await posts.posts(limit: limit, cursor: params.cursor)
                return (PageResult(domain: page), page.posts.count)
            }
        }
        router.on(PostsMethod.get) { params, _ in
            PostDTO(domain: try await posts.post(uid: try PostRules.uid(params.uid)))
        }
        router.on(PostsMethod.save) { params, _ in
            let post = try params.post.toDomain()
            var since: Date?
            if let text = params.ifUnchangedSince { since = try WireDate.parse(text, field: "ifUnchangedSince") }
            let saved = try await Self.naming("post") { () async throws(PostsError) -> Post in
                if let since { return try await posts.save(post, ifUnchangedSince: since) }
                return try await posts.save(post)
            }
            logger.debug("post saved", metadata: ["uid": "\(saved.uid)"])  // in the request's span: with its trace_id
            return PostDTO(domain: saved)
        }
        router.on(PostsMethod.saveMany) { params, _ in
            var batch: [Post] = []
            for (index, dto) in params.posts.enumerated() { batch.append(try dto.toDomain(field: "posts[\(index)]")) }
            return SaveManyResult(saved: try await posts.save(batch: batch))
        }
        router.on(PostsMethod.delete) { params, _ in
            DeleteResult(deleted: try await posts.delete(uid: try PostRules.uid(params.uid)))
        }
        router.onReply(PostsMethod.changes) { params, call in
            try await call.fitted(limit: params.limit ?? PostRules.pageSize.upperBound) { limit in
                let page = try await changes.changes(after: params.after, limit: limit)
                return (ChangesResult(domain: page), page.changes.count)
            }
        }
        router.on(PostsMethod.health) { _, _ in HealthResult(status: "ok", service: PostsMethod.service, pid: getpid()) }
        self.router = router
    }

    nonisolated(nonsending) func handle(_ body: Data) async -> Data {
        let handled = await router.handle(body)
        if handled.wrote { await announceChange(context: handled.context) }
        return handled.reply
    }

    /// Tells subscribers (search workers) that there is something new to
    /// pull. Best effort by design: a lost notice costs a reader one timer
    /// period, never data, because readers pull `posts.changes`.
    private func announceChange(context: ServiceContext?) async {
        guard let events, let head = try? await changes.head() else { return }
        var meta = RequestMeta()
        if let context { meta.carry(context) }
        let notice = ChangeNotice(service: PostsMethod.service, head: head, traceparent: meta.traceparent, tracestate: meta.tracestate)
        guard let body = try? JSONWriter.encode(notice) else { return }
        events.publish(topic: notice.topic, body: Array(body))
    }

    /// The use case names a post's own fields (`title`); the request holds
    /// them under `prefix` (`post.title`).
    private static func naming<T>(_ prefix: String, _ body: () async throws(PostsError) -> T) async throws(PostsError) -> T {
        do {
            return try await body()
        } catch {
            guard case .invalid(let invalid) = error else { throw error }
            throw .invalid("\(prefix).\(invalid.field)", invalid.reason)
        }
    }
}
