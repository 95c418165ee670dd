import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The `posts` service's methods (docs/PROTOCOL.md), each declared once
/// with the client's end beside it (a port requirement as a call,
/// `PostsServiceClient`); the service's end (the use-case call that answers
/// each) is RPCServer's PostsMethod+Serve.swift.
public enum PostsMethod {
    public static let service = "posts"
    public static let list = RPCMethod<ListParams, PageResult>("posts.list", service: service, defaultParams: ListParams())
    public static let get = RPCMethod<UIDParams, PostDTO>("posts.get", service: service)
    public static let save = RPCWrite<SaveParams, PostDTO>("posts.save", service: service)
    public static let saveMany = RPCWrite<SaveManyParams, SaveManyResult>("posts.saveMany", service: service)
    public static let delete = RPCWrite<DeleteParams, DeleteResult>("posts.delete", service: service)
    public static let changes = RPCMethod<ChangesParams, ChangesResult>("posts.changes", service: service)
    public static let count = RPCMethod<NoParams, CountResult>("posts.count", service: service)
    /// Served by each posts-service process itself (its pid), not a use case.
    public static let health = RPCMethod<NoParams, HealthResult>("posts.health", service: service)

    /// Every method's name, as `--help` lists them (a router test holds
    /// this to what posts-service serves).
    public static let names = [list.name, get.name, save.name, saveMany.name, delete.name, changes.name, count.name, health.name]
}

// The client's end: each port requirement, one call. It checks nothing: the
// interactor in the calling process did, and the service's will.
extension PostsServiceClient {
    public func page(limit: Int, after cursor: String?) async throws(PostsError) -> PostsPage {
        try await call(PostsMethod.list, ListParams(limit: limit, cursor: cursor)).toDomain()
    }

    public func post(uid: UUID) async throws(PostsError) -> Post? {
        do {
            return try await call(PostsMethod.get, UIDParams(uid: uid.text)).toDomain()
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

    public func delete(uid: UUID, ifUnchangedSince: Date?, key: RequestKey?) async throws(PostsError) -> Bool {
        let params = DeleteParams(uid: uid.text, ifUnchangedSince: ifUnchangedSince.map(WireDate.format))
        return try await call(PostsMethod.delete, params, key: key).deleted
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
