import Domain
import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// One connection, opened read-only in effect (`query_only`) and without
/// SQLite's own mutex (multi-thread mode). Its thread rule: one thread at
/// a time, which `SQLiteReaders` keeps by handing it out from a lock and
/// taking it back after the read.
final class SQLiteReader: @unchecked Sendable {
    private let connection: OpaquePointer
    /// By their text, looked through in order: a reader holds a statement
    /// or two, and the same text compares equal at once (hashing it cost
    /// more than the lookup of the post).
    private var statements: [(sql: String, statement: OpaquePointer)] = []

    init(path: String, busyTimeout: TimeInterval) throws(PostsError) {
        var handle: OpaquePointer?
        /// Closes what was opened, and says why it cannot be used.
        func unusable(_ reason: String) -> PostsError {
            sqlite3_close_v2(handle)
            return .failed("cannot open the posts database at \(path) to read: \(reason)")
        }
        let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            throw unusable(handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code)))
        }
        connection = handle
        sqlite3_busy_timeout(handle, Int32(min(busyTimeout * 1000, Double(Int32.max))))
        guard sqlite3_exec(handle, "PRAGMA query_only = 1", nil, nil, nil) == SQLITE_OK else {
            throw unusable(String(cString: sqlite3_errmsg(handle)))
        }
    }

    deinit {
        for (_, statement) in statements { sqlite3_finalize(statement) }
        sqlite3_close_v2(connection)
    }

    func first<T>(_ sql: String, _ argument: String, _ row: (SQLiteRow) -> T) throws(PostsError) -> T? {
        let statement = try prepared(sql)
        // Reset at once: that ends the statement's read of the database.
        defer { sqlite3_reset(statement) }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        var code = sqlite3_bind_text(statement, 1, argument, -1, transient)
        guard code == SQLITE_OK else { throw failure(code, sql) }
        code = sqlite3_step(statement)
        switch code {
        case SQLITE_ROW: return row(SQLiteRow(statement: statement))
        case SQLITE_DONE: return nil
        default: throw failure(code, sql)
        }
    }

    private func prepared(_ sql: String) throws(PostsError) -> OpaquePointer {
        if let known = statements.first(where: { $0.sql == sql }) { return known.statement }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw failure(code, sql) }
        statements.append((sql, statement))
        return statement
    }

    /// SQLite's own error, as GRDB reports it, mapped as every other read
    /// of the store maps it (`SQLiteFile.map`).
    private func failure(_ code: Int32, _ sql: String) -> PostsError {
        SQLiteFile.map(DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)), sql: sql))
    }
}
