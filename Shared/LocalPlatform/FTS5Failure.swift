import Foundation
import GRDB
import GRDBSQLite

/// An FTS5 call that failed: the statement fails with its code.
struct FTS5Failure: Error {
    var code: Int32

    static func check(_ code: Int32) throws(FTS5Failure) {
        guard code == SQLITE_OK else { throw FTS5Failure(code: code) }
    }
}
