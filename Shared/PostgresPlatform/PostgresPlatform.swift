import Domain
import Foundation
import LocalPlatform
import Logging

/// The PostgreSQL platform: Domain's ports on a database several hosts
/// share. Searches (which posts-service never serves) go to an in-memory
/// FTS5 index that follows this database's change feed, as a search worker's does.
public enum PostgresPlatform {
    /// Connects to `url`, brings the schema up to date (safe when several
    /// processes start at once), and returns the platform. Throws
    /// `.unavailable` when the server cannot be reached.
    public static func open(url: DatabaseURL, logger: Logger = Logger(label: "postgres")) async throws(PostsError) -> Platform {
        let database = PostgresDatabase(url: url, logger: logger)
        try await database.migrate()
        let feed = PostgresChangeFeed(database: database)
        let index: FTS5SearchIndex
        do { index = try FTS5SearchIndex() } catch { throw .failed("cannot make an in-memory search index: \(error)") }
        return Platform(store: PostgresPostStore(database: database), feed: feed, search: index,
                        searchSync: IndexSync(index: index, feed: feed), status: PostgresStatusSource(database: database),
                        watch: PollingWatch(feed: feed, interval: .seconds(1)))
    }
}

extension PostgresDatabase {
    func migrate() async throws(PostsError) {
        do {
            try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask { [client, logger] in
                    try await Schema.migrate(client, logger: logger)
                    return true
                }
                group.addTask {
                    try await Task.sleep(for: .seconds(15))
                    return false
                }
                defer { group.cancelAll() }
                guard try await group.next() == true else {
                    throw PostsError.unavailable(.store("no answer from PostgreSQL at \(location) within 15 s"))
                }
            }
        } catch let error as PostsError {
            throw error
        } catch {
            throw Self.map(error, location: location)
        }
    }
}
