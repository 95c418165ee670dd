@testable import Search
import Testing

/// A phrase's rarest word's documents, asked whether they hold its other
/// words: walked through the others' postings when the driver is rare,
/// by bitsets when it is not, with the same answers either way.
@Suite("Rarest words of a phrase", .timeLimit(.minutes(1)))
struct RarestWordsTests {
    /// A term's postings: `rowids` with counts that spread them over its tiers.
    private func term(_ rowids: [UInt32], lengths: ContiguousArray<Int32>) -> TermTiers {
        var term = TermTiers()
        for rowid in rowids { term.append(rowid: rowid, frequency: 1 + rowid % 7, length: lengths[Int(rowid)], average: 20) }
        return term
    }

    @Test func test_aRareDriverIsWalked_aCommonOneGetsBitsets_andBothTellTheSame() async {
        var lengths = ContiguousArray<Int32>(repeating: 20, count: 100_000)
        lengths[300] = -1  // removed
        let common = term(Array(stride(from: 0, to: 100_000, by: 3).map(UInt32.init)), lengths: lengths)
        let other = term(Array(stride(from: 0, to: 100_000, by: 5).map(UInt32.init)), lengths: lengths)
        let rare = term([0, 15, 16, 30, 300, 45_000, 99_990, 99_999], lengths: lengths)
        #expect(common.tiers.count > 1, "postings over several tiers")

        let walked = RarestWords.of(driver: rare, others: [common, other], lengths: lengths)
        guard case .walked = walked else {
            Issue.record("a rare driver is walked")
            return
        }
        let bitsets = RarestWords.of(driver: common, others: [rare, other], lengths: lengths)
        guard case .bitsets = bitsets else {
            Issue.record("a common driver gets bitsets")
            return
        }

        let holding: [UInt32] = [0, 15, 30, 45_000, 99_990]  // every third and fifth rowid but the removed one
        for rowid in rare.tiers.flatMap({ Array($0.rowids) }) {
            #expect(walked.holdsAll(rowid, lengths) == holding.contains(rowid), "rowid \(rowid)")
            #expect(bitsets.holdsAll(rowid, lengths) == holding.contains(rowid), "rowid \(rowid), by bitsets")
        }
        for rowid in holding {
            #expect(walked.leastCount(rowid) == min(common.frequency(of: rowid)!, other.frequency(of: rowid)!), "the least count, rowid \(rowid)")
        }
    }

    @Test func test_aWalkFindsTheFirstNotBelow_fromWhereItStands() async {
        let run: [UInt32] = [2, 4, 4, 9, 20, 21, 40]
        run.withUnsafeBufferPointer { run in
            #expect(run.firstNotBelow(4, from: 0) == 1)
            #expect(run.firstNotBelow(5, from: 1) == 3)
            #expect(run.firstNotBelow(21, from: 3) == 5)
            #expect(run.firstNotBelow(41, from: 0) == 7)
            #expect(run.firstNotBelow(1, from: 0) == 0)
        }
    }
}
