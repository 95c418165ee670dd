import Domain
import Foundation
import GRDB

/// Domain's `StatusSource` on a file: where it is and how many posts it holds.
struct SQLiteStatusSource: StatusSource {
    let store: SQLiteFile

    func status() async throws(PostsError) -> SystemStatus {
        let count = try await store.read("status") { db in try PostRecord.fetchCount(db) }
        return SystemStatus(source: store.path, posts: count)
    }
}
