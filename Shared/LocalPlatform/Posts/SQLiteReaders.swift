import Domain
import Foundation
import GRDB
import GRDBSQLite
import Synchronization
import SystemSupport

/// Connections for the one-statement reads that answer a request on its
/// own thread (posts.get): SQLite's C API, each statement prepared once per
/// connection, no transaction around it (SQLite runs one statement on one
/// snapshot). GRDB's reader pool cost more than the read: it resolved key
/// paths on every checkout and went through a serial queue, 17% of
/// posts-service's CPU per posts.get.
final class SQLiteReaders: Sendable {
    private let path: String
    private let busyTimeout: TimeInterval
    /// Connections between reads (`IdlePool`: as many as have ever been
    /// in use at once, which the threads that read, sessions and Swift's
    /// pool, bound).
    private let idle = IdlePool<SQLiteReader>()

    /// Opens nothing yet: a connection is opened by the first read that
    /// finds none idle (the database must exist and be migrated by then).
    init(path: String, busyTimeout: TimeInterval) {
        self.path = path
        self.busyTimeout = busyTimeout
    }

    /// The first row `sql` gives with `argument` bound to its one parameter,
    /// made into a value by `row`; nil when there is none.
    func first<T>(_ sql: String, _ argument: String, _ row: (SQLiteRow) -> T) throws(PostsError) -> T? {
        try idle.use(making: { () throws(PostsError) in try SQLiteReader(path: path, busyTimeout: busyTimeout) }) {
            reader throws(PostsError) in try reader.first(sql, argument, row)
        }
    }
}
