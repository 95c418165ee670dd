import Domain
import Foundation
import Wire

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
