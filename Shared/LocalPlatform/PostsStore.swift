import Domain
import Foundation
import GRDB

/// The SQLite file: WAL mode (readers never wait for the writer), migrated
/// on open, safe to share between processes (writers wait for each other
/// up to `busyTimeout`).
final class PostsStore: Sendable {
    let path: String
    private let pool: DatabasePool

    init(path: String, busyTimeout: TimeInterval = 10) throws(PostsError) {
        self.path = path
        do {
            try OwnerOnlyFiles.prepare(database: path)
            var configuration = Configuration()
            configuration.busyMode = .timeout(busyTimeout)
            pool = try DatabasePool(path: path, configuration: configuration)
            try Schema.migrator.migrate(pool)
        } catch {
            throw .failed("cannot open the posts database at \(path): \(error)")
        }
    }

    /// Reads on the calling thread: a WAL read never waits for writers and
    /// takes microseconds, so the hop to GRDB's queue would cost more than
    /// the read (it was most of posts.get's latency).
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(PostsError) -> T {
        do { return try readHere(body) } catch { throw Self.map(error) }
    }

    /// Not async, so it calls GRDB's synchronous `read`.
    private func readHere<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.read(body)
    }

    /// `read` for a body that runs one SQL statement: SQLite runs a
    /// statement on one snapshot, so the transaction `read` opens around
    /// it (BEGIN and COMMIT, two more statements) is left out.
    func readOneStatement<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(PostsError) -> T {
        do { return try unsafeReadHere(body) } catch { throw Self.map(error) }
    }

    private func unsafeReadHere<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.unsafeRead(body)
    }

    /// Writes on GRDB's writer queue: a write may wait up to `busyTimeout`
    /// for another process's, which must not hold up a shared thread.

    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(PostsError) -> T {
        do { return try await pool.write(body) } catch { throw Self.map(error) }
    }

    private static func map(_ error: any Error) -> PostsError {
        if let error = error as? PostsError { return error }
        if let error = error as? DatabaseError, error.resultCode == .SQLITE_BUSY {
            return .busy(.store)
        }
        return .failed("database error: \(error)")
    }
}
