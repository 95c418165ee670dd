@testable import Search
import Testing

/// A column of postings is a value, as the array it replaced was: a copy
/// (a save's, a query's) never sees the changes made to another.
@Suite("Posting columns", .timeLimit(.minutes(1)))
struct PostingColumnTests {
    @Test func test_aCopy_andTheColumnItCameFrom_changeApart() async {
        var column = PostingColumn()
        for value in 0..<10 { column.append(UInt32(value)) }
        var copy = column
        copy.append(99)
        column.append(7)
        #expect(Array(column) == (0..<10).map(UInt32.init) + [7])
        #expect(Array(copy) == (0..<10).map(UInt32.init) + [99])
        column.trim()
        #expect(column.capacity == column.count && Array(column).last == 7)
    }
}
