import Domain
import Foundation
import Observability
import GRDB
import Synchronization

/// The SQLite file: WAL mode (readers never wait for the writer), migrated
/// on open, safe to share between processes (writers wait for each other
/// up to `busyTimeout`).
final class SQLiteFile: Sendable {
    let path: String
    private let pool: DatabasePool
    private let readers: SQLiteReaders
    /// Each operation's time, when the process serves metrics.
    let timers: StoreTimers?
    /// The head as this process's newest committed write of posts left it
    /// (0 before the first): what a change notice announces, without a read.
    let headAfterWrites = Atomic<Int64>(0)

    /// The most of a file read through a memory map (SQLite's own limit:
    /// 2 GB less 64 KiB), and the page cache of each connection, in KiB.
    /// Reads come through the map: no copy into SQLite's page cache and no
    /// read call per page, and what it maps is the file's, which the kernel
    /// drops under pressure, not the process's own memory. The cache holds
    /// what a transaction writes before it commits.
    /// - The posts database: a new post lands at a random place in the
    ///   index of uids; with SQLite's 2 MB cache and no map, the writer read
    ///   those pages back with a system call each time. At a million posts
    ///   an import took 31 µs of posts-service CPU a post instead of 36,
    ///   and 48 s instead of 55 (docs/BENCHMARKS.md); a larger cache gained
    ///   nothing more.
    /// - A search index file (`SQLiteSearchIndex`): with 16 MiB a catch-up
    ///   batch is written without spilling to the log first (measured when
    ///   FTS5 tables were in it: at a million posts 15,600 posts/s instead
    ///   of 13,300).
    static let mapped = 0x7FFF_0000
    static let cacheKiB = 16_384

    /// Sets a connection to read its file through the map, with the cache above.
    static func readThroughMap(_ db: Database) throws {
        try db.execute(sql: "PRAGMA mmap_size = \(mapped); PRAGMA cache_size = -\(cacheKiB)")
    }

    init(path: String, busyTimeout: TimeInterval = 10, timers: StoreTimers? = nil) throws(PostsError) {
        self.path = path
        self.timers = timers
        readers = SQLiteReaders(path: path, busyTimeout: busyTimeout)
        do {
            try OwnerOnlyFiles.prepare(database: path)
            var configuration = Configuration()
            configuration.busyMode = .timeout(busyTimeout)
            configuration.prepareDatabase(Self.readThroughMap)
            pool = try DatabasePool(path: path, configuration: configuration)
            try Schema.migrator.migrate(pool)
        } catch {
            throw .failed("cannot open the posts database at \(path): \(error)")
        }
    }

    /// Reads on the calling thread: a WAL read never waits for writers and
    /// takes microseconds, so the hop to GRDB's queue would cost more than
    /// the read (it was most of posts.get's latency).
    /// `operation` names it in `posts_store_duration_seconds`.
    func read<T: Sendable>(_ operation: StaticString, _ body: @escaping @Sendable (Database) throws -> T) async throws(PostsError) -> T {
        try timers.measure(operation) { () throws(PostsError) in
            do { return try readHere(body) } catch { throw Self.map(error) }
        }
    }

    /// Not async, so it calls GRDB's synchronous `read`.
    private func readHere<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.read(body)
    }

    /// The first row of a one-statement read with one text parameter, on
    /// the calling thread and a connection of `SQLiteReaders` (see there).
    func first<T>(_ operation: StaticString, _ sql: String, _ argument: String, _ row: (SQLiteRow) -> T) throws(PostsError) -> T? {
        try timers.measure(operation) { () throws(PostsError) in try readers.first(sql, argument, row) }
    }

    /// Writes on GRDB's writer queue: a write may wait up to `busyTimeout`
    /// for another process's, which must not hold up a shared thread.

    func write<T: Sendable>(_ operation: StaticString, _ body: @escaping @Sendable (Database) throws -> T) async throws(PostsError) -> T {
        try await timers.measure(operation) { () async throws(PostsError) in
            do { return try await pool.write(body) } catch { throw Self.map(error) }
        }
    }

    /// A write of posts: `write`, noting the head it leaves
    /// (`headAfterWrites`), read in its own transaction so that no read is
    /// needed after it.
    func writePosts<T: Sendable>(_ operation: StaticString, _ body: @escaping @Sendable (Database) throws -> T) async throws(PostsError) -> T {
        let (value, head) = try await write(operation) { db in (try body(db), try Schema.head(db)) }
        headAfterWrites.max(head, ordering: .releasing)
        return value
    }

    /// What every read and write of the posts database answers for a failure:
    /// busy is the store's, anything else a fault named by SQLite's words.
    static func map(_ error: any Error) -> PostsError {
        if let error = error as? PostsError { return error }
        if let error = error as? DatabaseError, error.resultCode == .SQLITE_BUSY {
            return .busy(.store)
        }
        return .failed("database error: \(error)")
    }
}
