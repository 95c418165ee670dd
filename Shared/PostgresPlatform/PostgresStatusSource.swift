import Domain
import Foundation
import PostgresNIO

/// Domain's `StatusSource` on PostgreSQL: where the posts are (no password)
/// and how many there are.
struct PostgresStatusSource: StatusSource {
    let database: PostgresDatabase

    func status() async throws(PostsError) -> SystemStatus {
        let count = try await database.read("status") { connection, logger in
            for try await count in try await connection.query("SELECT count(*) FROM post", logger: logger).decode(Int64.self) {
                return Int(count)
            }
            return 0
        }
        return SystemStatus(source: database.location, posts: count)
    }
}
