import Foundation
@testable import Search
import TestSupport
import TestTraits
import Testing

/// Documents added a batch at a time (a catch-up's, a load's) make the
/// same index as one at a time: every posting, block bound and tier, and
/// the rebases of every bound that an average moving by a tenth brings in
/// the middle of a batch.
@Suite("Postings held for a batch", .ownThread, .timeLimit(.minutes(2)))
struct HeldPostingsTests {
    @Test func test_documentsAddedInBatches_makeTheSameSavedPostings_asOneAtATime() async throws {
        try expectBatchesMakeWhatOneAtATimeDoes(documents: 6_000, batches: 1...1_500, seed: 44)
    }

    /// Batches large enough that their room is kept for the next
    /// (`ImpactIndex.heldRoomKeptFrom`), then a small one that lets it go,
    /// make what one at a time does too: nothing of a batch is left over
    /// in the room the next one reuses.
    @Test func test_largeBatches_inRoomKeptFromOneToTheNext_makeTheSameSavedPostings() async throws {
        try expectBatchesMakeWhatOneAtATimeDoes(documents: 16_000, batches: 2_500...5_000, seed: 45)
    }

    /// A batch of as many postings as `heldRoomKeptFrom` keeps its room for
    /// the next; a smaller batch, `trim` and `letGoOfBatchRoom` let it go.
    @Test func test_theRoomOfALargeBatch_isKeptForTheNext_andLetGoOf() async {
        func batch(from rowid: Int64, documents: Int) -> [StemmedDocument] {
            (0..<documents).map { StemmedDocument(rowid: rowid + Int64($0), title: [1, 2], content: (0..<30).map { Int32($0 * 7 % 500) }) }
        }
        var index = ImpactIndex()
        let large = ImpactIndex.heldRoomKeptFrom / 32 + 1
        index.add(batch(from: 0, documents: large))
        #expect(index.holdsBatchRoom)
        index.add(batch(from: Int64(large), documents: 10))
        #expect(!index.holdsBatchRoom, "a small batch lets the room go")
        index.add(batch(from: Int64(large + 10), documents: large))
        #expect(index.holdsBatchRoom)
        index.letGoOfBatchRoom()
        #expect(!index.holdsBatchRoom)
        index.add(batch(from: Int64(2 * large + 10), documents: large))
        index.trim()
        #expect(!index.holdsBatchRoom, "trim lets it go")
        #expect(index.rows == Int64(3 * large + 10))
    }

    /// `documents` made at random, added one at a time and in batches of
    /// sizes drawn from `batches`: the same saved postings.
    private func expectBatchesMakeWhatOneAtATimeDoes(documents count: Int, batches: ClosedRange<Int>, seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        // Stems drawn unevenly (a common few, many rare ones); lengths that
        // jump now and then, so that the average moves inside batches.
        func stems(_ count: Int) -> [Int32] {
            (0..<count).map { _ in Int32(min(Double(5_000), 1 / (Double.random(in: 0.0002...1, using: &random))) - 1) }
        }
        var documents: [StemmedDocument] = []
        var rowid: Int64 = 1
        for index in 0..<count {
            rowid += Int64.random(in: 1...3, using: &random)  // gaps, as removed documents leave
            let content = index % 997 == 0 ? 4_000 : Int.random(in: 0...60, using: &random)
            documents.append(StemmedDocument(rowid: rowid, title: stems(Int.random(in: 0...8, using: &random)), content: stems(content)))
        }
        var one = ImpactIndex()
        for document in documents { one.add(rowid: document.rowid, title: document.title, content: document.content) }
        var batched = ImpactIndex()
        var start = 0
        while start < documents.count {
            let end = min(documents.count, start + Int.random(in: batches, using: &random))
            batched.add(Array(documents[start..<end]))
            start = end
        }
        #expect(try saved(batched) == saved(one))
        #expect(batched.postingsAdded == one.postingsAdded && batched.postings.count == one.postings.count)
    }

    /// A term's postings appended a run at a time (each tier's columns
    /// claimed once, the last block's best kept aside) hold what one
    /// posting at a time makes: the same tiers, columns, block bounds and
    /// bests, runs that end inside a block and single appends between them
    /// included.
    @Test func test_aTermsRun_appendedAtOnce_holdsWhatOnePostingAtATimeMakes() async {
        var random = SeededGenerator(seed: 7)
        var rowid: UInt32 = 0
        var postings: [HeldPostings.Posting] = []
        var documents: [HeldPostings.Document] = []
        var average = 40.0
        for _ in 0..<20_000 {
            rowid += UInt32.random(in: 1...4, using: &random)
            average = max(5, average + Double.random(in: -1...1, using: &random))
            documents.append(HeldPostings.Document(length: Int32.random(in: 1...200, using: &random), average: average))
            let frequency = Bool.random(using: &random) ? 1 : UInt32.random(in: 1...40, using: &random)
            postings.append(HeldPostings.Posting(rowid: rowid, frequency: frequency, document: UInt32(documents.count - 1)))
        }
        var one = TermTiers()
        for posting in postings {
            let document = documents[Int(posting.document)]
            one.append(rowid: posting.rowid, frequency: posting.frequency, length: document.length, average: document.average)
        }
        var runs = TermTiers()
        var start = 0
        while start < postings.count {
            let end = min(postings.count, start + Int.random(in: 1...700, using: &random))
            if end - start == 1 {
                let document = documents[Int(postings[start].document)]
                runs.append(rowid: postings[start].rowid, frequency: postings[start].frequency, length: document.length, average: document.average)
            } else {
                postings.withUnsafeBufferPointer { postings in
                    documents.withUnsafeBufferPointer { runs.append(UnsafeBufferPointer(rebasing: postings[start..<end]), of: $0) }
                }
            }
            start = end
        }
        #expect(runs.documents == one.documents && runs.tiers.count == one.tiers.count)
        #expect(one.tiers.count > 3, "postings in several tiers")
        for (mine, theirs) in zip(runs.tiers, one.tiers) {
            #expect(Array(mine.rowids) == Array(theirs.rowids) && Array(mine.frequencies) == Array(theirs.frequencies))
            #expect(mine.blockBests == theirs.blockBests && mine.blockScales == theirs.blockScales)
            #expect(mine.blockAverages == theirs.blockAverages && mine.documents == theirs.documents)
            #expect(mine.best == theirs.best && mine.smallestAverage == theirs.smallestAverage)
        }
    }

    /// The file `StoredPostings` writes of `index`, under one id.
    private func saved(_ index: ImpactIndex) throws -> Data {
        let directory = try makeTemporaryDirectory("held")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/postings"
        try StoredPostings.write(index, loadedThrough: 0, id: UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)), to: path)
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }
}
