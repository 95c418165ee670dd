@testable import Search
import TestSupport
import TestTraits
import Testing

/// What one term's postings hold in memory as documents come.
@Suite("Term postings memory", .ownThread, .timeLimit(.minutes(5)))
struct TermPostingsTests {
    @Test func test_postingsThatGrowAsPostsCome_holdAtMostAnEighthMoreThanTheyUse() async {
        var postings = TermPostings()
        var worst = 0.0
        var at = (count: 0, rowids: 0, frequencies: 0)
        for rowid in 1...300_000 {
            postings.append(rowid: UInt32(rowid), frequency: 1, length: 12, average: 12)
            // Past the doubling of small arrays (which may leave one at up to twice).
            if rowid > 4 * PostingColumn.doublingUpTo {
                let held = max(postings.rowids.capacity, postings.frequencies.capacity)
                if Double(held) / Double(rowid) > worst {
                    worst = Double(held) / Double(rowid)
                    at = (rowid, postings.rowids.capacity, postings.frequencies.capacity)
                }
            }
        }
        // An eighth, and what malloc rounds up; an array left to grow by
        // itself doubles: up to twice what it uses.
        #expect(worst <= 1.0 + 1.0 / Double(PostingColumn.growthDivisor) + 0.05, "held \(worst)× what was used: \(at)")
        #expect(postings.rowids.count == 300_000)
    }
}
