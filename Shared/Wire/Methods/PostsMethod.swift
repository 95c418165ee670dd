import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The `posts` service's methods (docs/PROTOCOL.md), each declared once
/// with both of its ends beside it: the client's (a port requirement as a
/// call, `PostsServiceClient`) and the service's (the use-case call that
/// answers it, `serve`). A new method is written here, three times over,
/// and nowhere else in the wire.
public enum PostsMethod {
    public static let service = "posts"
    public static let list = RPCMethod<ListParams, PageResult>("posts.list", service: service, defaultParams: ListParams())
    public static let get = RPCMethod<UIDParams, PostDTO>("posts.get", service: service)
    public static let save = RPCWrite<SaveParams, PostDTO>("posts.save", service: service)
    public static let saveMany = RPCWrite<SaveManyParams, SaveManyResult>("posts.saveMany", service: service)
    public static let delete = RPCWrite<UIDParams, DeleteResult>("posts.delete", service: service)
    public static let changes = RPCMethod<ChangesParams, ChangesResult>("posts.changes", service: service)
    public static let count = RPCMethod<NoParams, CountResult>("posts.count", service: service)
    /// Served by each posts-service process itself (its pid), not a use case.
    public static let health = RPCMethod<NoParams, HealthResult>("posts.health", service: service)
}

// The client's end: each port requirement, one call. It checks nothing: the
// interactor in the calling process did, and the service's will.
extension PostsServiceClient {
    public func page(limit: Int, after cursor: String?) async throws(PostsError) -> PostsPage {
        try await call(PostsMethod.list, ListParams(limit: limit, cursor: cursor)).toDomain()
    }

    public func post(uid: UUID) async throws(PostsError) -> Post? {
        do {
            return try await call(PostsMethod.get, UIDParams(uid: uid.uuidString)).toDomain()
        } catch .notFound {
            return nil
        }
    }

    public func save(_ post: Post, ifUnchangedSince: Date?, key: RequestKey?) async throws(PostsError) -> Post {
        let params = SaveParams(post: PostDTO(domain: post), ifUnchangedSince: ifUnchangedSince.map(WireDate.format))
        return try await call(PostsMethod.save, params, key: key).toDomain()
    }

    public func save(batch posts: [Post], key: RequestKey?) async throws(PostsError) -> Int {
        try await call(PostsMethod.saveMany, SaveManyParams(posts: posts.map(PostDTO.init(domain:))), key: key).saved
    }

    public func delete(uid: UUID, key: RequestKey?) async throws(PostsError) -> Bool {
        try await call(PostsMethod.delete, UIDParams(uid: uid.uuidString), key: key).deleted
    }

    public func count() async throws(PostsError) -> Int {
        try await call(PostsMethod.count, NoParams()).count
    }

    public func changes(after sequence: Int64, limit: Int) async throws(PostsError) -> PostChanges {
        try await call(PostsMethod.changes, ChangesParams(after: sequence, limit: limit)).toDomain()
    }

    /// The head, from a page after every sequence there can be: 2^53, the
    /// largest integer a JSON number carries exactly everywhere.
    public func head() async throws(PostsError) -> Int64 {
        try await changes(after: 1 << 53, limit: 1).head
    }
}

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
            DeleteResult(deleted: try await posts.delete(uid: try PostRules.uid(params.uid), key: key))
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
    /// post's: the router names it.
    private static func naming<T>(_ prefix: String, _ body: () async throws(PostsError) -> T) async throws(PostsError) -> T {
        do {
            return try await body()
        } catch {
            guard case .invalid(let invalid) = error, invalid.field != RequestKey.field else { throw error }
            throw .invalid("\(prefix).\(invalid.field)", invalid.reason)
        }
    }
}
