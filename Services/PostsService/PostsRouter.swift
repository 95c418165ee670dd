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
    let logger: Logger

    func handle(_ body: [Frame]) async -> [Frame] {
        var changed = false
        let reply = await JSONRPC.respond(to: body.map { $0.withUnsafeBytes { Data($0) } }, onFault: logFault) { request in
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
            let page = try await posts.posts(limit: try PostRules.validatedLimit(params.limit), cursor: params.cursor)
            return (try JSONRPC.encodeResult(id: id, PageResult(domain: page)), false)
        case PostsMethod.get:
            let uid = try PostRules.uid(try request.params(UIDParams.self).uid)
            return (try JSONRPC.encodeResult(id: id, PostDTO(domain: try await posts.post(uid: uid))), false)
        case PostsMethod.save:
            let post = try request.params(SaveParams.self).post.toDomain()
            return (try JSONRPC.encodeResult(id: id, PostDTO(domain: try await posts.save(post))), true)
        case PostsMethod.saveMany:
            let dtos = try request.params(SaveManyParams.self).posts
            guard dtos.count <= PostsMethod.saveManyLimit else {
                throw JSONRPCError(.tooLarge, "params.posts has \(dtos.count) posts; send at most \(PostsMethod.saveManyLimit) per call",
                                   data: ["field": "params.posts", "limit": .number(Double(PostsMethod.saveManyLimit))])
            }
            var batch: [Post] = []
            for (index, dto) in dtos.enumerated() {
                do {
                    batch.append(try PostRules.validated(try dto.toDomain(field: "posts[\(index)]")))
                } catch {
                    throw Self.naming(entry: index, in: error)
                }
            }
            let saved = try await posts.save(batch)
            return (try JSONRPC.encodeResult(id: id, SaveManyResult(saved: saved)), saved > 0)
        case PostsMethod.delete:
            let uid = try PostRules.uid(try request.params(UIDParams.self).uid)
            let deleted = try await posts.delete(uid: uid)
            return (try JSONRPC.encodeResult(id: id, DeleteResult(deleted: deleted)), deleted)
        case PostsMethod.changes:
            let params = try request.params(ChangesParams.self)
            let page = try await changes.changes(after: params.after, limit: params.limit ?? PostRules.pageSize.upperBound)
            return (try JSONRPC.encodeResult(id: id, ChangesResult(domain: page)), false)
        case PostsMethod.health:
            return (try JSONRPC.encodeResult(id: id, HealthResult(status: "ok", service: PostsMethod.service, pid: getpid())), false)
        default:
            throw JSONRPCError.methodNotFound(request.method, service: PostsMethod.service)
        }
    }

    /// Tells subscribers (search workers) that there is something new to
    /// pull. Best effort by design: a lost notice costs a reader one timer
    /// period, never data, because readers pull `posts.changes`.
    private func announceChange() async {
        guard let events, let head = try? await changes.head(),
              let body = try? JSONEncoder().encode(ChangeNotice(service: PostsMethod.service, head: head))
        else { return }
        events.publish(topic: ChangeNotice(service: PostsMethod.service, head: head).topic, body: Array(body))
    }

    /// A rule broken by one post of a batch, named with its place in the batch.
    private static func naming(entry index: Int, in error: PostsError) -> PostsError {
        guard case .invalid(let field, let rule) = error, !field.hasPrefix("posts[") else { return error }
        return .invalid(field: "posts[\(index)].\(field)", rule: rule)
    }
}
