import Domain
import Foundation
@testable import LocalPlatform
@testable import Search
import TestSupport
import TestTraits
import Testing

/// FTS5's words, but stemming one word fails: what a tokenizer that fails
/// mid-page does to the ranking.
private final class FailingWords: WordTokenizer, @unchecked Sendable {
    private let words: FTS5Words
    init() throws { words = try FTS5Words() }
    func eachWord(in text: UnsafeBufferPointer<UInt8>, what: String, _ each: (UnsafeBufferPointer<UInt8>, Range<Int>) -> Bool) throws {
        try words.eachWord(in: text, what: what, each)
    }
    func stem(_ word: String) throws -> String {
        if word == "explode" { throw PostsError.failed("the stemmer failed on 'explode'") }
        return try words.stem(word)
    }
}

/// A page of changes the ranking of a worker's index cannot take (its
/// documents are written) is never lost in silence: every search and
/// write after it fails naming it, and the ranking is not saved for the
/// next start, whether the page was ranked at once or aside (a catch-up's).
@Suite("A ranking that lost a page", .ownThread, .timeLimit(.minutes(2)))
struct RankingFailureTests {
    @Test(arguments: [10, SQLiteSearchIndex.rankedAsideFrom])
    func test_aPageTheRankingCannotTake_failsEverySearchAndWriteAfterIt_namingIt(size: Int) async throws {
        try await withDatabase { path in
            let ranker = try ImpactRanker { try FailingWords() }
            let index = try SQLiteSearchIndex(path: path, exclusive: true, postingsPath: path + ".postings", trainingAfter: nil, ranker: ranker)
            func changes(_ numbers: ClosedRange<Int>, failingAt failing: Int? = nil) -> [PostChange] {
                numbers.map { n in
                    let post = Post(title: "Post \(n)", content: n == failing ? "alpha explode" : "alpha")
                    return PostChange(sequence: Int64(n), uid: post.uid, kind: .upsert(post))
                }
            }
            func failure(_ body: () async throws -> Void) async -> String {
                do {
                    try await body()
                    return "no failure"
                } catch {
                    return "\(error)"
                }
            }
            // Ranked at once, this write fails itself; ranked aside, it returns, and what follows fails.
            let first = await failure {
                try await index.apply(changes(1...size, failingAt: size / 2), position: IndexPosition(applied: Int64(size), database: nil))
            }
            #expect(size >= SQLiteSearchIndex.rankedAsideFrom || first.contains("explode"), "\(first)")
            for (what, outcome) in [
                ("settle", await failure { try await index.settle() }),
                ("search", await failure { _ = try await index.search("alpha", limit: 10, offset: 0) }),
                (
                    "apply",
                    await failure {
                        try await index.apply(changes((size + 1)...(size + 1)), position: IndexPosition(applied: Int64(size + 1), database: nil))
                    }
                ),
                ("save", await failure { _ = try await index.saveRanking() }),
            ] {
                #expect(outcome.contains("lost a page") && outcome.contains("explode"), "\(what): \(outcome)")
            }
        }
    }
}
