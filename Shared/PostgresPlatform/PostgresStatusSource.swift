import Domain
import Foundation

/// Domain's `StatusSource` on PostgreSQL: where the posts are (no password)
/// and how many there are.
struct PostgresStatusSource: StatusSource {
    let database: PostgresDatabase

    func status() async throws(PostsError) -> SystemStatus {
        SystemStatus(source: database.location, posts: try await PostgresPostStore(database: database).count())
    }
}
