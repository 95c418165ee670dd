import Domain
import Foundation
import GRDB

/// Request keys in the SQLite file (`RequestKey`, `KeyedWrite`): looked up
/// and recorded inside the write's own transaction, so the write and the
/// memory of its key commit together or not at all.
enum SQLiteRequestKeys {
    /// `body`'s answer, or, when the key is remembered, the answer it
    /// gave the first time, without running `body`.
    static func once<T>(
        _ key: RequestKey?, _ write: KeyedWrite, now: Date, _ db: Database,
        answer: (T) -> String, remembered: (String) -> T?, _ body: () throws -> T
    ) throws -> T {
        guard let key else { return try body() }
        let oldest = now.timeIntervalSince1970 - Double(RequestKey.remembered.components.seconds)
        let lookup = try db.cachedStatement(sql: "SELECT operation, answer FROM requestKey WHERE key = ? AND at >= ?")
        if let row = try Row.fetchOne(lookup, arguments: [key.text, oldest]) {
            return try write.replay(key, remembered: (row[0], row[1]), decode: remembered)
        }
        let value = try body()
        try db.cachedStatement(
            sql: "DELETE FROM requestKey WHERE key IN (SELECT key FROM requestKey WHERE at < ? ORDER BY at LIMIT \(RequestKey.prunedPerWrite))"
        ).execute(arguments: [oldest])
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO requestKey (key, operation, answer, at) VALUES (?, ?, ?, ?)")
            .execute(arguments: [key.text, write.operation, answer(value), now.timeIntervalSince1970])
        return value
    }
}
