import Domain
import Foundation
@testable import LocalPlatform
@testable import Search
import TestSupport
import TestTraits
import Testing

/// `ImpactSearch` skips postings that cannot reach the page; these tests
/// hold its pages to FTS5's own exhaustive bm25 on the same documents: the
/// same hits in the same order with the same scores, for every query of
/// whole words, on a corpus whose words are as unevenly common as a real
/// one's, after removals and changes.
@Suite("Impact search ranks as FTS5's exhaustive bm25", .ownThread, .timeLimit(.minutes(5)))
struct ImpactSearchTests {
    /// FTS5's own bm25 over every match: the best `keep` (rowid, score), and how many match.
    private func reference(_ built: ZipfCorpus, _ words: [String], keep: Int) throws -> ([Ranked], Int) {
        try built.exhaustive(words.map(SearchQuery.quote).joined(separator: " AND "), keep: keep)
    }

    private func impact(_ built: ZipfCorpus, _ words: [String], keep: Int, exactCount: Int = 0) throws -> ImpactSearch.Result {
        try built.database.read { db in
            let tokenizer = try ImpactTokenizer.fts5()
            let terms = words.map { SearchQuery.Term(words: [$0], isPhrase: false) }
            let groups = try #require(try ImpactQuery.groups(for: terms, lastIsUnfinished: false, in: built.index, tokenizer: tokenizer))
            return ImpactSearch.best(keep, of: groups, in: built.index, exactCount: exactCount)
        }
    }

    private func expectSamePage(_ built: ZipfCorpus, _ words: [String], keep: Int) throws {
        let (expected, total) = try reference(built, words, keep: keep)
        let found = try impact(built, words, keep: keep)
        #expect(found.ranked.map(\.rowid) == expected.map(\.rowid), "\(words) keep \(keep)")
        for (mine, theirs) in zip(found.ranked, expected) {
            #expect(abs(mine.score - theirs.score) <= 1e-9 * max(1, abs(theirs.score)), "\(words): rowid \(mine.rowid)")
        }
        if found.isExact { #expect(found.total == total, "\(words)") } else { #expect(found.total <= total, "\(words)") }
    }

    @Test("every common, rare, pair and triple query's first page is FTS5's, at 10 and at 60 a page")
    func test_whenQueriedWithWholeWords_thenThePageIsExhaustiveBM25s() async throws {
        let built = try ZipfCorpus.build(count: 6_000, seed: 7)
        try #require(built.commonWords.count >= 5 && built.rareWords.count >= 20)
        let common = built.commonWords
        var queries = common.map { [$0] } + built.rareWords.prefix(40).map { [$0] }
        for (first, second) in zip(common, common.dropFirst()) { queries.append([first, second]) }
        for index in 0..<min(20, common.count - 2) { queries.append([common[index], common[index + 2], common[index + 1]]) }
        queries.append([common[0], common[0]])
        for query in queries {
            for keep in [10, 60] { try expectSamePage(built, query, keep: keep) }
        }
    }

    @Test("once most documents are removed, each term's postings are rebuilt, and pages are still FTS5's")
    func test_whenMostDocumentsAreRemoved_thenPostingsShrinkAndPagesStillAgree() async throws {
        let built = try ZipfCorpus.build(count: 3_000, seed: 19, removes: { $0 % 4 != 0 }, changes: { _ in false })
        for tier in built.index.postings.flatMap(\.tiers) {
            #expect(tier.rowids.count <= 2 * tier.documents + TermPostings.blockSize)
        }
        for word in built.commonWords.prefix(10) { try expectSamePage(built, [word], keep: 10) }
        for (first, second) in zip(built.commonWords, built.commonWords.dropFirst()).prefix(10) {
            try expectSamePage(built, [first, second], keep: 10)
        }
    }

    @Test("a common word's page is found without scoring every match, and says its count is exact")
    func test_whenOneCommonWord_thenPostingsAreSkippedAndTheCountIsStillExact() async throws {
        let built = try ZipfCorpus.build(count: 3_000, seed: 11)
        let word = try #require(built.commonWords.first)
        let found = try impact(built, [word], keep: 10)
        let (_, total) = try reference(built, [word], keep: 10)
        #expect(found.isExact && found.total == total)
        #expect(found.scored < total / 2, "scored \(found.scored) of \(total)")
    }

    @Test("a page found within the counting bound is kept: the matches past it are skipped, not scored")
    func test_whenThePageIsFoundBeforeTheCountingBound_thenTheRestIsSkipped() async {
        var index = ImpactIndex()
        let word = index.add(word: "alpha", stem: "alpha")
        let filler = index.add(word: "lorem", stem: "lorem")
        // The first ten hold the word in a short title; the 2,990 after, once in a long content.
        for rowid in 1...3_000 {
            if rowid <= 10 {
                index.add(rowid: Int64(rowid), title: [word], content: [filler])
            } else {
                index.add(rowid: Int64(rowid), title: [filler], content: [word] + Array(repeating: filler, count: 40))
            }
        }
        let found = ImpactSearch.best(10, of: [[word]], in: index, exactCount: 100)
        #expect(found.ranked.map(\.rowid) == Array(1...10))
        #expect(found.scored < 1_000, "scored \(found.scored) of 3,000: the page never changed after the 100th match")
    }

    /// A page of 10 with skipping (past a counting bound of 1,000), and the page of every match scored.
    private func skippingAndExhaustive(_ groups: [[Int32]], in index: ImpactIndex) -> (ImpactSearch.Result, ImpactSearch.Result) {
        (ImpactSearch.best(10, of: groups, in: index, exactCount: 1_000), ImpactSearch.best(10, of: groups, in: index, exactCount: .max))
    }

    @Test("a page held by a rare completion's posts, far apart, is found without scoring every match of the common words beside it")
    func test_whenARareCompletionHoldsThePage_thenItsPostsAreScoredFirstAndTheRestSkipped() async {
        var index = ImpactIndex()
        let common = index.add(word: "common", stem: "common")
        let often = index.add(word: "gc", stem: "gc")
        let rare = index.add(word: "gcrare", stem: "gcrare")
        // Every post holds `common` and `gc`; every 500th has `gcrare` in its title.
        for rowid in 1...5_000 {
            index.add(rowid: Int64(rowid), title: rowid % 500 == 0 ? [rare] : [common], content: [common, often, common])
        }
        let groups: [[Int32]] = [[common], [often, rare]]
        let (found, exhaustive) = skippingAndExhaustive(groups, in: index)
        #expect(exhaustive.ranked.map(\.rowid) == (1...10).map { Int64($0 * 500) })
        #expect(found.ranked == exhaustive.ranked)
        #expect(found.scored < 1_500, "scored \(found.scored) of 5,000: the rare posts were met only as the search reached them")
    }

    @Test("posts scored ahead lose a tie to an earlier post with the same score, as in FTS5's order")
    func test_whenPostsScoredAheadTieWithEarlierOnes_thenTheEarlierAreOnThePage() async {
        var index = ImpactIndex()
        let filler = index.add(word: "filler", stem: "filler")
        let late = index.add(word: "late", stem: "late")
        let early = index.add(word: "early", stem: "early")
        // 100 posts with `early` at rowids 1,501-1,600 (past the counting
        // bound), 100 with `late` at 2,901-3,000, alike in all else.
        for rowid in 1...3_000 {
            let word = (1_501...1_600).contains(rowid) ? [early] : rowid > 2_900 ? [late] : []
            index.add(rowid: Int64(rowid), title: word.isEmpty ? [filler] : word, content: [filler, filler])
        }
        let groups: [[Int32]] = [[filler, late, early]]
        let (found, exhaustive) = skippingAndExhaustive(groups, in: index)
        #expect(exhaustive.ranked.map(\.rowid) == Array(1_501...1_510))
        #expect(found.ranked == exhaustive.ranked)
    }

    @Test("two common words: the page is FTS5's; past the counting bound the count is at least what was counted")
    func test_whenTwoCommonWordsPastTheCountingBound_thenTheCountIsALowerBound() async throws {
        let built = try ZipfCorpus.build(count: 6_000, seed: 13)
        let words = Array(built.commonWords.prefix(2))
        let (expected, total) = try reference(built, words, keep: 10)
        let found = try impact(built, words, keep: 10, exactCount: 50)
        #expect(found.ranked.map(\.rowid) == expected.map(\.rowid))
        #expect(!found.isExact && found.total >= 50 && found.total < total)
        let counted = try impact(built, words, keep: 10, exactCount: 1_000_000)
        #expect(counted.isExact && counted.total == total)
    }

    @Test("an unfinished word stands for its 8 most common completions, including words its stem does not start")
    func test_whenTheLastWordIsUnfinished_thenItCompletesToTheMostCommonWords() async throws {
        let built = try ZipfCorpus.build(count: 2_000, seed: 17)
        try await built.database.read { db in
            let tokenizer = try ImpactTokenizer.fts5()
            let letter = try ImpactQuery.completions(of: "k", in: built.index, tokenizer: tokenizer)
            #expect(letter.count == SearchRules.prefixCompletions)
            let documents = { (stem: Int32) in built.index.postings[Int(stem)].documents }
            let starting = built.index.vocabulary.stems.indices.filter { built.index.vocabulary.stems[$0].hasPrefix("k") }
            let fewest = try #require(letter.map(documents).min())
            #expect(starting.filter { !letter.contains(Int32($0)) }.allSatisfy { documents(Int32($0)) <= fewest })
            // `…ation` words stem to `…at`: the typed prefix is not a prefix of their stem.
            let typed = try #require(built.commonWords.first { $0.hasSuffix("ation") })
            let unfinished = String(typed.dropLast(2))
            let stem = try tokenizer.stem(typed)
            #expect(!stem.hasPrefix(unfinished))
            let completions = try ImpactQuery.completions(of: unfinished, in: built.index, tokenizer: tokenizer)
            #expect(completions.contains(try #require(built.index.vocabulary.number(ofStem: stem))))
        }
    }
}
