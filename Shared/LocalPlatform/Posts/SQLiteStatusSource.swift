import Domain
import Foundation

/// Domain's `StatusSource` on a file: where it is and how many posts it holds.
struct SQLiteStatusSource: StatusSource {
    let store: SQLiteFile

    func status() async throws(PostsError) -> SystemStatus {
        SystemStatus(source: store.path, posts: try await SQLitePostStore(store: store).count())
    }
}
