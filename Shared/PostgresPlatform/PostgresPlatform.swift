import Domain
import Foundation
import Logging
import Observability
import PostgresNIO

/// The PostgreSQL platform: Domain's ports on a database several hosts
/// share. Searches (which posts-service never serves) go to the search
/// index it is given (the executable's choice: an in-memory one of
/// LocalPlatform's), which follows this database's change feed, as a
/// search worker's does.
public enum PostgresPlatform {
    /// Connects to `url`, brings the schema up to date (safe when several
    /// processes start at once), and returns the platform, searching on
    /// `searchIndex`. Throws `.unavailable` when the server cannot be reached.
    /// `callTimeout`: how long one call may take before the store counts as
    /// unavailable (5 s; the tests' throwaway clusters, on a loaded machine,
    /// give their first calls more).
    public static func open(
        url: DatabaseURL, searchIndex: some SearchIndex & SearchEngine, callTimeout: Duration = .seconds(5), timers: StoreTimers? = nil,
        logger: Logger = Logger(label: "postgres")
    ) async throws(PostsError) -> Platform {
        let database = PostgresDatabase(url: url, callTimeout: callTimeout, timers: timers, logger: logger)
        try await database.migrate()
        let feed = PostgresChangeFeed(database: database)
        return Platform(
            store: PostgresPostStore(database: database), feed: feed, search: searchIndex,
            searchSync: IndexSync(index: searchIndex, feed: feed), status: PostgresStatusSource(database: database),
            watch: PollingWatch(feed: feed, interval: .seconds(1)))
    }
}

extension PostgresDatabase {
    /// On one connection of its own, made once: a server that is down, or a
    /// password or certificate refused, is said at once, instead of the
    /// pool trying again in the background while the process waits.
    func migrate() async throws(PostsError) {
        do {
            let tls: PostgresConnection.Configuration.TLS =
                try Self.tlsSettings(url).map { .require(try NIOSSLContext(configuration: $0)) } ?? .disable
            var configuration = PostgresConnection.Configuration(
                host: url.host, port: url.port, username: url.user,
                password: url.password, database: url.database, tls: tls)
            configuration.options.connectTimeout = .seconds(10)
            let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
            do {
                try await Schema.migrate(connection, logger: logger)
            } catch {
                try? await connection.close()
                throw error
            }
            try await connection.close()
        } catch let error as PostsError {
            throw error
        } catch {
            throw Self.map(error, location: location)
        }
    }
}
