import Domain
import Foundation
import Wire

/// Domain's `PostStore` port as requests to the `posts` service. It checks
/// nothing: the interactor in this process did, and the service's will.
struct GatewayPostStore: PostStore {
    let gateway: GatewayConnection

    func page(limit: Int, after cursor: String?) async throws(PostsError) -> PostsPage {
        try await gateway.call(PostsMethod.list, ListParams(limit: limit, cursor: cursor)).toDomain()
    }

    func post(uid: UUID) async throws(PostsError) -> Post? {
        do {
            return try await gateway.call(PostsMethod.get, UIDParams(uid: uid.uuidString)).toDomain()
        } catch .notFound {
            return nil
        }
    }

    func save(_ post: Post, ifUnchangedSince: Date?) async throws(PostsError) -> Post {
        let params = SaveParams(post: PostDTO(domain: post), ifUnchangedSince: ifUnchangedSince.map(WireDate.format))
        return try await gateway.call(PostsMethod.save, params).toDomain()
    }

    func save(batch posts: [Post]) async throws(PostsError) -> Int {
        try await gateway.call(PostsMethod.saveMany, SaveManyParams(posts: posts.map(PostDTO.init(domain:)))).saved
    }

    func delete(uid: UUID) async throws(PostsError) -> Bool {
        try await gateway.call(PostsMethod.delete, UIDParams(uid: uid.uuidString)).deleted
    }
}
