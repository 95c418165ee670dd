import Domain
@testable import LocalPlatform
@testable import Search
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
}
