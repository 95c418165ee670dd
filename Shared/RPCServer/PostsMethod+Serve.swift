import Domain
import Wire
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The service's end: each method, a use-case call. No rule here either.
extension PostsMethod {
    /// Registers a handler on `router` for each method but `health`.
    public static func serve(on router: inout JSONRPCRouter, posts: any PostsUseCase, changes feed: any PostChangesUseCase) {
        router.onReply(list) { params, call in
            try await call.fitted(limit: params.limit ?? PostRules.defaultPageSize) { limit in
                let page = try await posts.posts(limit: limit, cursor: params.cursor)
                return (PageResult(domain: page), page.posts.count)
            }
        }
        router.on(get) { params, _ in
            PostDTO(domain: try await posts.post(uid: try PostRules.uid(params.uid)))
        }
        router.on(save) { params, key, _ in
            let post = try params.post.toDomain()
            var since: Date?
            if let text = params.ifUnchangedSince { since = try WireDate.parse(text, field: "ifUnchangedSince") }
            let saved = try await naming("post") { () async throws(PostsError) -> Post in
                if let since { return try await posts.save(post, ifUnchangedSince: since, key: key) }
                return try await posts.save(post, key: key)
            }
            return PostDTO(domain: saved)
        }
        router.on(saveMany) { params, key, _ in
            var batch: [Post] = []
            for (index, dto) in params.posts.enumerated() { batch.append(try dto.toDomain(field: "posts[\(index)]")) }
            return SaveManyResult(saved: try await posts.save(batch: batch, key: key))
        }
        router.on(delete) { params, key, _ in
            let uid = try PostRules.uid(params.uid)
            guard let text = params.ifUnchangedSince else { return DeleteResult(deleted: try await posts.delete(uid: uid, key: key)) }
            try await posts.delete(uid: uid, ifUnchangedSince: try WireDate.parse(text, field: "ifUnchangedSince"), key: key)
            return DeleteResult(deleted: true)
        }
        router.on(count) { _, _ in CountResult(count: try await posts.count()) }
        router.onReply(changes) { params, call in
            try await call.fitted(limit: params.limit ?? PostRules.pageSize.upperBound) { limit in
                let page = try await feed.changes(after: params.after, limit: limit)
                return (ChangesResult(domain: page), page.changes.count)
            }
        }
    }

    /// The use case names a post's own fields (`title`); the request holds
    /// them under `prefix` (`post.title`). The request key is not the
    /// post's: the wire names it where the request carries it (WireField).
    private static func naming<T>(_ prefix: String, _ body: () async throws(PostsError) -> T) async throws(PostsError) -> T {
        do {
            return try await body()
        } catch {
            guard case .invalid(let invalid) = error, invalid.field != RequestKey.field else { throw error }
            throw .invalid("\(prefix).\(invalid.field)", invalid.reason)
        }
    }
}
