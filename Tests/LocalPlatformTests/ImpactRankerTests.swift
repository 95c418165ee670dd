import Domain
import Foundation
@testable import LocalPlatform
@testable import Search
import Synchronization
import SystemSupport
import TestSupport
import TestTraits
import Testing

/// The ranking postings loaded beside a table that changes meanwhile.
@Suite("Impact ranker loading", .ownThread, .timeLimit(.minutes(5)))
struct ImpactRankerTests {
    @Test func test_whenTheTableIsEmptiedWhileLoading_thenRankingGoesOnWithWhatCameAfter() async throws {
        let ranker = try ImpactRanker.fts5()
        try ranker.load([(1, "alpha", "first")], through: 1, complete: false)
        #expect(try ranker.rank("alpha", keep: 10) == nil, "not loaded yet: FTS5 ranks")
        ranker.reset()  // the posts database was replaced: the table is empty, so nothing is left to load
        try ranker.apply(removed: [], added: [(2, "beta", "second")])
        // The loading, which began before, reads the new document in a full page of its own.
        try ranker.load([(2, "beta", "second")], through: 2, complete: false)
        #expect(ranker.isComplete)
        #expect(try ranker.rank("beta", keep: 10)?.rowids == [2])
        #expect(try ranker.rank("alpha", keep: 10)?.rowids == [])
    }

    @Test func test_aDocumentAddedWhileLoading_isLoadedOnce_andOneRemovedIsGone() async throws {
        let ranker = try ImpactRanker.fts5()
        try ranker.load([(1, "alpha", "one")], through: 1, complete: false)
        try ranker.apply(removed: [(1, "alpha", "one")], added: [(2, "alpha", "two")])  // 2 is past what is loaded: left to the loading
        try ranker.load([(2, "alpha", "two")], through: 2, complete: true)
        let found = try #require(try ranker.rank("alpha", keep: 10))
        #expect(found.rowids == [2] && found.total == 1 && found.totalIsExact)
    }

    /// A saved copy read back from its file is taken up however busy the
    /// writer: the changes that come while the copy is brought up to date
    /// cannot leave it in memory of its own round after round (on a loaded
    /// machine a worker that was never quiet once never gave its memory
    /// back), and the ranking is the one the documents give.
    @Test func test_aSavedCopy_isTakenUp_whileAWriterAppliesChangesWithoutPause() async throws {
        let ranker = try ImpactRanker.fts5()
        let first: [ImpactRanker.Document] = (1...300).map { (Int64($0), "post \($0)", "kernel module word\($0)") }
        try ranker.load(first, through: 300, complete: true)
        let saved = try #require(ranker.saved())
        try await withTemporaryDirectory("adopt") { directory in
            let (path, id) = (directory + "/postings", UUID())
            _ = try StoredPostings.write(saved.index, loadedThrough: saved.loadedThrough, id: id, to: path)
            let mapped = try StoredPostings.read(from: path, id: id).index
            let writer = Writer()
            let writing = Task {
                try await onThread(named: "writer") {
                    var rowid: Int64 = 300
                    while !writer.stop.load(ordering: .relaxed) {
                        rowid += 1
                        try ranker.apply(removed: [], added: [(rowid, "new \(rowid)", "kernel")])
                        writer.written.store(rowid - 300, ordering: .relaxed)
                    }
                    return rowid
                }
            }
            #expect(await eventually(within: .seconds(60)) { writer.written.load(ordering: .relaxed) >= 50 }, "the writer never wrote")
            let adopted = ranker.adopt(mapped, ofVersion: saved.version)
            writer.stop.store(true, ordering: .relaxed)
            let last = try await writing.value
            #expect(adopted, "taken up while \(writer.written.load(ordering: .relaxed)) changes came")
            #expect(ranker.postingsHeld.mapped == saved.index.postingsHeld.inMemory, "read in place: \(ranker.postingsHeld)")
            let documents = first + (301...last).map { (Int64($0), "new \($0)", "kernel") }
            let built = try ImpactRanker.fts5()
            try built.load(documents, through: last, complete: true)
            for query in ["kernel", "new", "module", "word7"] {
                let (ours, theirs) = (try #require(try ranker.rank(query, keep: 20)), try #require(try built.rank(query, keep: 20)))
                #expect(ours.rowids == theirs.rowids && ours.total == theirs.total, "\(query): \(ours.rowids) against \(theirs.rowids)")
            }
        }
    }

    private final class Writer: Sendable {
        let stop = Atomic<Bool>(false)
        let written = Atomic<Int64>(0)
    }
}
