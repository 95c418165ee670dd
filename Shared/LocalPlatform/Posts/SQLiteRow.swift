import Domain
import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// One column-by-index view of the row a statement stands on.
struct SQLiteRow {
    let statement: OpaquePointer

    func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(statement, column) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, column))), as: UTF8.self)
    }

    func double(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }
}
