import Domain
import EventBus
import Foundation
import Logging
import Wire
import ZeroMQ
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Turns one JSON-RPC request into a use-case call and its reply. Every
/// failure becomes the JSON-RPC error docs/PROTOCOL.md names for it.
struct PostsRouter: Sendable {
    let posts: any PostsUseCase
    let changes: any PostChangesUseCase
    /// Where change notices go after each committed write; nil publishes none.
    let events: EventPublisher?
    /// The largest frame the gateway accepts (its POSTS_MAX_FRAME_SIZE); a
    /// bigger reply would cost the connection, not just the request.
    let maxReplyBytes: Int
    let logger: Logger

    func handle(_ body: [Frame]) async -> [Frame] {
        var changed = false
        let data = body.map { $0.withUnsafeBytes { Data($0) } }
        let reply = await JSONRPC.respond(to: data, maxReplyBytes: maxReplyBytes, onFault: logFault) { request in
            let (data, didChange) = try await answer(request)
            changed = didChange
            return data
        }
        if changed { await announceChange() }
        return [Frame(reply)]
    }

    private func logFault(_ method: String, _ error: any Error) {
        logger.error("request failed", metadata: ["method": "\(method)", "error": "\(error)"])
    }

    /// The reply, and whether the request changed anything (so subscribers hear of it).
    private func answer(_ request: JSONRPC.IncomingRequest) async throws -> (Data, changed: Bool) {
        let id = request.id
        switch request.method {
        case PostsMethod.list:
            let params = try request.params(ListParams.self, or: ListParams())
            let data = try await fitted(limit: params.limit ?? PostRules.defaultPageSize) { limit in
                let page = try await posts.posts(limit: limit, cursor: params.cursor)
                return (try JSONRPC.encodeResult(id: id, PageResult(domain: page)), page.posts.count)
            }
            return (data, false)
        case PostsMethod.get:
            let uid = try PostRules.uid(try request.params(UIDParams.self).uid)
            return (try JSONRPC.encodeResult(id: id, PostDTO(domain: try await posts.post(uid: uid))), false)
        case PostsMethod.save:
            let params = try request.params(SaveParams.self)
            let post = try params.post.toDomain()
            var since: Date?
            if let text = params.ifUnchangedSince { since = try WireDate.parse(text, field: "ifUnchangedSince") }
            let saved = try await Self.naming("post") { () async throws(PostsError) -> Post in
                if let since { return try await posts.save(post, ifUnchangedSince: since) }
                return try await posts.save(post)
            }
            return (try JSONRPC.encodeResult(id: id, PostDTO(domain: saved)), true)
        case PostsMethod.saveMany:
            let dtos = try request.params(SaveManyParams.self).posts
            var batch: [Post] = []
            for (index, dto) in dtos.enumerated() { batch.append(try dto.toDomain(field: "posts[\(index)]")) }
            let saved = try await posts.save(batch: batch)
            return (try JSONRPC.encodeResult(id: id, SaveManyResult(saved: saved)), saved > 0)
        case PostsMethod.delete:
            let uid = try PostRules.uid(try request.params(UIDParams.self).uid)
            let deleted = try await posts.delete(uid: uid)
            return (try JSONRPC.encodeResult(id: id, DeleteResult(deleted: deleted)), deleted)
        case PostsMethod.changes:
            let params = try request.params(ChangesParams.self)
            let data = try await fitted(limit: params.limit ?? PostRules.pageSize.upperBound) { limit in
                let page = try await changes.changes(after: params.after, limit: limit)
                return (try JSONRPC.encodeResult(id: id, ChangesResult(domain: page)), page.changes.count)
            }
            return (data, false)
        case PostsMethod.health:
            return (try JSONRPC.encodeResult(id: id, HealthResult(status: "ok", service: PostsMethod.service, pid: getpid())), false)
        default:
            throw JSONRPCError.methodNotFound(request.method, service: PostsMethod.service)
        }
    }

    /// Pages are bounded in raw bytes, and JSON escaping can make text up
    /// to six times longer: a page that does not fit the gateway's frame
    /// limit is asked for again with half as many entries (its cursor or
    /// sequence follows what it holds, so nothing is skipped).
    private func fitted(limit: Int, _ page: (Int) async throws -> (Data, count: Int)) async throws -> Data {
        var limit = limit
        while true {
            let (data, count) = try await page(limit)
            if data.count <= maxReplyBytes || count <= 1 { return data }
            limit = count / 2
        }
    }

    /// Tells subscribers (search workers) that there is something new to
    /// pull. Best effort by design: a lost notice costs a reader one timer
    /// period, never data, because readers pull `posts.changes`.
    private func announceChange() async {
        guard let events, let head = try? await changes.head() else { return }
        let notice = ChangeNotice(service: PostsMethod.service, head: head)
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
