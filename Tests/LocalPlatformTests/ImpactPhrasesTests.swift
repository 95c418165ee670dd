import Domain
import Foundation
import GRDB
@testable import LocalPlatform
@testable import Search
import TestSupport
import TestTraits
import Testing

/// `ImpactPhrases` ranks a phrase beside other terms by counting it in the
/// stems of every document that holds a phrase's words; these tests hold its pages to
/// FTS5's own exhaustive bm25 on the same documents: the same hits in the
/// same order, the same scores to the bit, and the exact count.
@Suite("Phrases beside other terms rank as FTS5's exhaustive bm25", .ownThread, .timeLimit(.minutes(5)))
struct ImpactPhrasesTests {
    private func reference(_ built: ZipfCorpus, _ query: String, keep: Int) throws -> (ranked: [Ranked], total: Int) {
        let terms = SearchQuery.terms(in: query)
        return try built.exhaustive(terms.map { SearchQuery.quote($0.words.joined(separator: " ")) }.joined(separator: " AND "), keep: keep)
    }

    private func ranked(_ built: ZipfCorpus, _ query: String, keep: Int) throws -> RankedRows {
        let tokenizer = try ImpactTokenizer.fts5()
        let terms = try ImpactQuery.terms(for: SearchQuery.terms(in: query), lastIsUnfinished: false, in: built.index, tokenizer: tokenizer)
        return ImpactRanker.rank(terms, keep: keep, in: built.index)
    }

    @Test("a phrase beside words, beside a phrase, twice over: every page is FTS5's, with its scores and its count")
    func test_whenAPhraseIsBesideOtherTerms_thenThePageIsExhaustiveBM25s() async throws {
        let built = try ZipfCorpus.build(count: 6_000, seed: 13)
        let common = Array(built.commonWords.prefix(6))
        let rare = Array(built.rareWords.prefix(4))
        let pair = { (first: String, second: String) in "\"\(first) \(second)\"" }
        var queries = [
            "\(pair(common[0], common[1])) \(common[2])", "\(common[2]) \(pair(common[0], common[1]))",
            "\(pair(common[0], common[1])) \(pair(common[2], common[3]))", "\(pair(common[1], common[0])) \(common[4]) \(common[5])",
            "\(pair(common[0], common[0])) \(common[1])", "\(pair(common[3], common[4])) \(common[3])",
            "\(pair(common[0], common[1])) \(pair(common[0], common[1]))",
        ]
        queries += rare.map { "\(pair(common[0], $0)) \(common[1])" } + rare.map { "\($0) \(pair(common[1], common[2]))" }
        var matched = 0
        for query in queries {
            for keep in [10, 60] {
                let expected = try reference(built, query, keep: keep)
                let found = try ranked(built, query, keep: keep)
                #expect(found.rowids == expected.ranked.map(\.rowid), "\(query) keep \(keep)")
                #expect(found.scores == expected.ranked.map(\.score), "\(query) keep \(keep)")
                #expect(found.total == expected.total && found.totalIsExact, "\(query)")
                matched += expected.total > keep ? 1 : 0
            }
        }
        #expect(matched >= 4, "some queries match more than a page")
    }

    @Test("a phrase with a word no document holds, or beside one, finds nothing, exactly")
    func test_whenAWordIsUnknown_thenNothingIsFound() async throws {
        let built = try ZipfCorpus.build(count: 500, seed: 3)
        let (first, second) = (built.commonWords[0], built.commonWords[1])
        for query in ["\"\(first) zzzunknown\" \(second)", "\"\(first) \(second)\" zzzunknown"] {
            let found = try ranked(built, query, keep: 10)
            #expect(found.rowids.isEmpty && found.total == 0 && found.totalIsExact, "\(query)")
        }
    }
}
