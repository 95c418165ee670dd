import Domain
import Foundation
import GRDB
@testable import LocalPlatform
@testable import Search
import TestSupport
import TestTraits
import Testing

/// `ImpactPhrase` counts a phrase in the stems of its documents only where
/// they may reach the page; these tests hold its pages to FTS5's own exhaustive bm25 on the
/// same documents: the same hits in the same order, with the same scores
/// wherever the count is exact, for phrases of common and rare words.
@Suite("Impact phrase ranks as FTS5's exhaustive bm25", .ownThread, .timeLimit(.minutes(5)))
struct ImpactPhraseTests {
    /// FTS5's own bm25 over every match of the phrase: the best `keep`
    /// (rowid, score), how many match, and how many hold every word of it.
    private func reference(_ built: ZipfCorpus, _ phrase: String, keep: Int) throws -> (ranked: [Ranked], total: Int, holding: Int) {
        let found = try built.exhaustive(SearchQuery.quote(phrase), keep: keep)
        let words = phrase.split(separator: " ").map { SearchQuery.quote(String($0)) }.joined(separator: " AND ")
        return (found.ranked, found.total, try built.exhaustive(words, keep: 0).total)
    }

    private func ranked(_ built: ZipfCorpus, _ phrase: String, keep: Int, exactChecks: Int = ImpactRanker.exactCount) throws -> RankedRows {
        let tokenizer = try ImpactTokenizer.fts5()
        let stems = try #require(try ImpactQuery.phrase(for: SearchQuery.terms(in: "\"\(phrase)\""), in: built.index, tokenizer: tokenizer))
        return ImpactRanker.rank(phrase: stems, keep: keep, in: built.index, exactChecks: exactChecks)
    }

    /// Phrases of two and three words as they follow one another in the
    /// corpus's own texts: common words together, common with rare, one
    /// word twice; and runs of 6 to 9 words taken from posts, longer than
    /// the words `ImpactPhrase` reads the postings of (`boundingWords`).
    private func phrases(_ built: ZipfCorpus) throws -> [String] {
        let common = Array(built.commonWords.prefix(6))
        var phrases = common.flatMap { first in common.map { "\(first) \($0)" } }
        phrases += ["\(common[0]) \(common[1]) \(common[2])", "\(common[1]) \(common[0]) \(common[0])"]
        phrases += built.rareWords.prefix(10).flatMap { ["\($0) \(common[0])", "\(common[0]) \($0)"] }
        let contents = try built.database.read { db in
            try String.fetchAll(db, sql: "SELECT content FROM fts WHERE rowid % 500 = 3 ORDER BY rowid LIMIT 6")
        }
        for (number, content) in contents.enumerated() {
            let words = content.split(separator: " ").map(String.init)
            let length = 6 + number % 4
            if words.count >= length { phrases.append(words.prefix(length).joined(separator: " ")) }
        }
        return phrases
    }

    private func expectSamePage(_ built: ZipfCorpus, _ phrase: String, keep: Int, exactChecks: Int = ImpactRanker.exactCount) throws {
        let expected = try reference(built, phrase, keep: keep)
        let found = try ranked(built, phrase, keep: keep, exactChecks: exactChecks)
        #expect(found.rowids == expected.ranked.map(\.rowid), "\"\(phrase)\" keep \(keep)")
        if found.totalIsExact {
            #expect(found.total == expected.total, "\"\(phrase)\"")
            for (mine, theirs) in zip(found.scores, expected.ranked.map(\.score)) {
                #expect(abs(mine - theirs) <= 1e-9 * max(1, abs(theirs)), "\"\(phrase)\"")
            }
        } else {
            #expect(found.total >= found.rowids.count && found.total <= expected.total, "\"\(phrase)\"")
        }
    }

    @Test("every phrase's page is FTS5's, at 10 and at 60 a page, with its scores and its exact count")
    func test_whenQueriedWithAPhrase_thenThePageIsExhaustiveBM25s() async throws {
        let built = try ZipfCorpus.build(count: 6_000, seed: 7)
        try #require(built.commonWords.count >= 6 && built.rareWords.count >= 10)
        let phrases = try phrases(built)
        var found = 0
        for phrase in phrases {
            for keep in [10, 60] { try expectSamePage(built, phrase, keep: keep) }
            found += try reference(built, phrase, keep: 1).total > 0 ? 1 : 0
        }
        #expect(found > phrases.count / 2, "most of the phrases occur: \(found) of \(phrases.count)")
        let long = phrases.filter { Set($0.split(separator: " ")).count > ImpactPhrase.boundingWords }
        #expect(long.count >= 3, "phrases of more words than those whose postings are read: \(long)")
    }

    @Test("a common phrase's page is found checking fewer documents than hold its words; past the bound of checks the count is a lower bound")
    func test_whenAPhraseIsCommon_thenFewDocumentsAreChecked_andTheCountIsALowerBound() async throws {
        let built = try ZipfCorpus.build(count: 6_000, seed: 11)
        let phrase = "\(built.commonWords[0]) \(built.commonWords[1])"
        let expected = try reference(built, phrase, keep: 10)
        try #require(expected.total > 50)
        let bounded = try ranked(built, phrase, keep: 10, exactChecks: 20)
        #expect(bounded.rowids == expected.ranked.map(\.rowid))
        #expect(!bounded.totalIsExact && bounded.total >= 10 && bounded.total < expected.total)
        #expect(bounded.scored < expected.holding / 4, "checked \(bounded.scored) of the \(expected.holding) holding every word")
        let counted = try ranked(built, phrase, keep: 10, exactChecks: expected.holding)
        #expect(counted.totalIsExact && counted.total == expected.total && counted.rowids == bounded.rowids)
    }

    @Test("a text's tokens that may be the phrase's are found as unicode61 and porter find them, in ASCII and beyond")
    func test_thePhrasesTokens_areFoundAsTheTokenizerFindsThem() async throws {
        let built = try ZipfCorpus.build(count: 500, seed: 5)
        let pieces =
            built.commonWords.prefix(8).map { $0 } + ["TALKING", "Ka", "x", "42", "ka9", "é", "Zébra", "--", ", ", "  ", "_", "'s", "\n", "ﬁle"]
        try await built.database.read { db in
            var seed: UInt64 = 42
            func next(_ bound: Int) -> Int {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Int((seed >> 33) % UInt64(bound))
            }
            let tokenizer = try ImpactTokenizer.fts5()
            // The reference: FTS5's own words, which the index's words
            // (`words(in:)`, cut in ASCII without it) must be.
            let fts5 = try FTS5Words()
            func reference(_ text: String) throws -> [String] {
                var (text, words) = (text, [String]())
                try text.withUTF8 { bytes in
                    try fts5.eachWord(in: bytes, what: "a test") { word, _ in
                        words.append(String(decoding: word, as: UTF8.self))
                        return true
                    }
                }
                return words
            }
            let stems = try built.commonWords.prefix(3).map { try #require(built.index.vocabulary.stem(ofWord: $0)) }
            for round in 0..<300 {
                var text = (0..<next(30)).map { _ in pieces[next(round < 150 ? pieces.count - 3 : pieces.count)] }.joined(
                    separator: next(3) == 0 ? "" : " ")
                if next(4) == 0 { text = text.uppercased() }
                let phrases = { (found: [Int32?]) in found.map { $0.flatMap { stems.contains($0) ? $0 : nil } } }
                let every = phrases(try tokenizer.knownStems(of: text, in: built.index))
                let among = phrases(try tokenizer.knownStems(of: text, in: built.index, onlyAmong: stems))
                #expect(among == every, "\(text)")
                #expect(try tokenizer.words(in: text) == reference(text), "\(text)")
            }
        }
    }

    @Test("a phrase with a word no document holds finds nothing, and says so exactly")
    func test_whenAWordIsUnknown_thenNothingIsFound() async throws {
        let built = try ZipfCorpus.build(count: 500, seed: 3)
        let found = try ranked(built, "\(built.commonWords[0]) zzzunknown", keep: 10)
        #expect(found.rowids.isEmpty && found.total == 0 && found.totalIsExact)
    }
}
