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

    /// A save's copy, then the column goes on (appending in place, past
    /// the copy's values), then the copy appends too: each holds its own.
    @Test func test_aCopyTakenWhileTheColumnGrows_keepsWhatItHeld_andAppendsApart() async {
        var column = PostingColumn()
        for value in 0..<10 { column.append(UInt32(value)) }
        var copy = column
        for value in 10..<5_000 { column.append(UInt32(value)) }
        #expect(Array(copy) == (0..<10).map(UInt32.init))
        copy.append(42)
        column.append(5_000)
        #expect(Array(copy) == (0..<10).map(UInt32.init) + [42])
        #expect(Array(column) == (0...5_000).map(UInt32.init))
    }

    /// A copy that appended first and is let go of leaves the room to the
    /// column: alone in it, the column appends in place, where its values
    /// lie, instead of moving them all to room of its own.
    @Test func test_aColumnAloneInItsRoomAgain_appendsInPlace() async {
        var column = PostingColumn()
        for value in 0..<10 { column.append(UInt32(value)) }
        let room = column.capacity
        #expect(room > 11, "room for the appends below")
        do {
            var copy = column
            copy.append(99)
            #expect(Array(copy) == (0..<10).map(UInt32.init) + [99])
        }
        let before = Self.start(of: column)
        column.append(10)
        column.append(11)
        #expect(Self.start(of: column) == before, "not moved")
        #expect(column.capacity == room)
        #expect(Array(column) == (0..<12).map(UInt32.init))
    }

    private static func start(of column: PostingColumn) -> UnsafePointer<UInt32>? {
        var start: UnsafePointer<UInt32>?
        column.forEachRun { start = $0.baseAddress }
        return start
    }

    @Test func test_aRangeOfValues_isHandedOutAsItLies_emptyOnesToo() async {
        var column = PostingColumn()
        #expect(column.withValues(in: 0..<0) { $0.count } == 0, "an empty column's empty range")
        for value in 0..<10 { column.append(UInt32(value)) }
        #expect(column.withValues(in: 2..<5) { Array($0) } == [2, 3, 4])
        #expect(column.withValues(in: 10..<10) { $0.count } == 0)
    }
}
