import Foundation
import HeapModule

/// Where one phrase of a query matched: its column, and the tokens it
/// covers there (counted from the column's first token).
public struct PhraseInstance: Equatable, Sendable {
    public var phrase: Int
    public var column: Int
    public var tokens: Range<Int>
}
