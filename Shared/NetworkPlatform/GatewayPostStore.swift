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

/// Domain's `ChangeFeed` as `posts.changes` requests.
struct GatewayChangeFeed: ChangeFeed {
    let gateway: GatewayConnection

    func changes(after sequence: Int64, limit: Int) async throws(PostsError) -> PostChanges {
        try await gateway.call(PostsMethod.changes, ChangesParams(after: sequence, limit: limit)).toDomain()
    }

    /// The head, from a page after every sequence there can be: 2^53, the
    /// largest integer a JSON number carries exactly everywhere.
    func head() async throws(PostsError) -> Int64 {
        try await changes(after: 1 << 53, limit: 1).head
    }
}

/// Domain's `SearchEngine` as `search.query` requests.
struct GatewaySearchEngine: SearchEngine {
    let gateway: GatewayConnection

    func search(_ query: String, limit: Int, offset: Int) async throws(PostsError) -> SearchResults {
        try await gateway.call(SearchMethod.query, SearchParams(q: query, limit: limit, offset: offset)).toDomain()
    }
}
