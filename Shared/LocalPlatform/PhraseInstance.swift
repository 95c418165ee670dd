import Foundation
import GRDBSQLite
import HeapModule

/// Where one phrase of a query matched: its column, and the tokens it
/// covers there (counted from the column's first token).
struct PhraseInstance: Equatable {
    var phrase: Int
    var column: Int
    var tokens: Range<Int>
}
