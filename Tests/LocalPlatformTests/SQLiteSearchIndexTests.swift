import Domain
import Foundation
import LocalPlatform
@testable import Search
import Synchronization
import TestSupport
import TestTraits
import Testing

@Suite("Search index", .ownThread, .timeLimit(.minutes(5)))
struct SQLiteSearchIndexTests {
    private func upsert(_ sequence: Int64, _ post: Post) -> PostChange {
        PostChange(sequence: sequence, uid: post.uid, kind: .upsert(post))
    }

    /// Brings `index` up to date with a change feed holding `changes`, as
    /// every search does (Domain's `IndexSync`); returns the sequence applied.
    @discardableResult
    private func catchUp(_ index: SQLiteSearchIndex, _ changes: [PostChange], head: Int64, database: String? = nil) async throws -> Int64 {
        try await IndexSync(index: index, feed: MemoryFeed(changes: changes, head: head, database: database)).catchUp()
    }

    /// The words a hit's highlights cover in its snippet.
    private func highlighted(_ hit: SearchHit) -> [String] {
        let scalars = Array(hit.snippet.unicodeScalars)
        return hit.highlights.map { String(String.UnicodeScalarView(scalars[$0])) }
    }

    private func titles(_ index: SQLiteSearchIndex, _ query: String) async throws -> [String] {
        try await index.search(query, limit: 50, offset: 0).hits.map(\.title)
    }

    @Test func test_wordsAreFound_theLastAsAPrefix_andStemmed() async throws {
        let index = try SQLiteSearchIndex()
        let hello = Post(title: "Hello world", content: "Running in the rain")
        let other = Post(title: "Other", content: "Nothing to see")
        try await catchUp(index, [upsert(1, hello), upsert(2, other)], head: 2)
        #expect(try await titles(index, "hello") == ["Hello world"])
        #expect(try await titles(index, "wor") == ["Hello world"], "the last word is a prefix")
        #expect(try await titles(index, "run") == ["Hello world"], "porter stemming: running ~ run")
        #expect(try await titles(index, "hello nothing").isEmpty, "every word must match")
        #expect(try await index.search("hello", limit: 10, offset: 0).sequence == 2)
    }

    @Test func test_anUnfinishedWordLongerThanItsStemStillFindsTheWord_andHighlightsIt() async throws {
        let index = try SQLiteSearchIndex()
        let post = Post(title: "Notes", content: "Running in the rain, connections everywhere")
        try await catchUp(index, [upsert(1, post), upsert(2, Post(title: "Other", content: "a runway"))], head: 2)
        // Stemmed, "running" is `run` and "connections" is `connect`: these prefixes are longer.
        for typed in ["runni", "Runnin", "connectio", "rain connectio"] {
            #expect(try await titles(index, typed) == ["Notes"], "typing \(typed)")
        }
        let hit = try #require(try await index.search("runni", limit: 10, offset: 0).hits.first)
        #expect(highlighted(hit) == ["Running"])
        #expect(try await titles(index, "\"runni\"").isEmpty, "a quoted word is a whole word")
    }

    @Test func test_anIndexReopened_loadsItsRankingAtItsFirstSearch_andCompletesUnfinishedWordsEveryWay() async throws {
        try await withDatabase { path in
            let post = Post(title: "Notes", content: "Running fast, connections everywhere")
            try await catchUp(
                try SQLiteSearchIndex(path: path), [upsert(1, post), upsert(2, Post(title: "Other", content: "a runway, fast"))], head: 2)
            let index = try SQLiteSearchIndex(path: path, exclusive: true)
            #expect(!index.rankingLoaded)
            #expect(try await titles(index, "runni") == ["Notes"])
            #expect(index.rankingLoaded)
            #expect(try await index.loadRanking() == 0, "every document already loaded")
            try await expectCompletions(index)
        }
    }

    @Test func test_aNewIndex_ranksFromItsFirstWrite_andCompletesUnfinishedWordsEveryWay() async throws {
        let index = try SQLiteSearchIndex()
        #expect(index.rankingLoaded)
        let post = Post(title: "Notes", content: "Running fast, connections everywhere")
        try await catchUp(index, [upsert(1, post), upsert(2, Post(title: "Other", content: "a runway, fast"))], head: 2)
        try await expectCompletions(index)
    }

    private func expectCompletions(_ index: SQLiteSearchIndex) async throws {
        for typed in ["runni", "Runnin", "connectio", "fast connectio", "\"fast\" runni"] {
            #expect(try await titles(index, typed) == ["Notes"], "typing \(typed)")
        }
        let hit = try #require(try await index.search("runni", limit: 10, offset: 0).hits.first)
        #expect(highlighted(hit) == ["Running"])
    }

    @Test func test_aPostsDatabaseBehindTheIndex_emptiesIt_andItIsRebuiltFromZero() async throws {
        let index = try SQLiteSearchIndex()
        try await catchUp(index, [upsert(7, Post(title: "Before the reset", content: ""))], head: 7)
        // The posts database was restored from a backup: its head is now 3.
        #expect(try await catchUp(index, [upsert(3, Post(title: "After the reset", content: ""))], head: 3) == 3)
        #expect(try await titles(index, "reset") == ["After the reset"])
        #expect(try await index.documentCount() == 1)
    }

    @Test func test_anotherPostsDatabase_emptiesTheIndex_evenWhenItsHeadIsAhead() async throws {
        let index = try SQLiteSearchIndex()
        try await catchUp(index, [upsert(2, Post(title: "From the old file", content: ""))], head: 2, database: "A")
        // A new file, filled (by an import, say) past the old head before the index looked.
        let new = [upsert(1, Post(title: "First in the new file", content: "")), upsert(5, Post(title: "From the new file", content: ""))]
        #expect(try await catchUp(index, new, head: 5, database: "B") == 5)
        #expect(try await titles(index, "file").sorted() == ["First in the new file", "From the new file"])
        #expect(try await catchUp(index, [], head: 5, database: "B") == 5, "the same database again changes nothing")
    }

    @Test func test_twoDatabasesAnsweringInTurn_areNamed_andTheIndexStaysOnTheOneItFollows() async throws {
        let index = try SQLiteSearchIndex()
        let a = MemoryFeed(changes: [upsert(1, Post(title: "Kept in file A", content: ""))], head: 1, database: "A")
        let b = MemoryFeed(
            changes: [upsert(1, Post(title: "Kept in file B", content: "")), upsert(2, Post(title: "More in B", content: ""))],
            head: 2, database: "B")
        // Two posts-services on different files behind one gateway: each pull may reach either.
        let feed = TurnFeed([a, b])
        let resets = Mutex(0)
        let sync = IndexSync(index: index, feed: feed) { _, _ in resets.withLock { $0 += 1 } }
        feed.turn(to: 0)
        #expect(try await sync.catchUp() == 1)
        feed.turn(to: 1)
        #expect(try await sync.catchUp() == 2, "the first other database is a reset: the index follows it")
        feed.turn(to: 0)
        let error = await #expect(throws: PostsError.self) { try await sync.catchUp() }
        #expect("\(error.map { "\($0)" } ?? "")".contains("two posts databases answer for the posts service: B, which the index follows, and A"))
        #expect(try await titles(index, "kept") == ["Kept in file B"], "not rebuilt from A")
        #expect(resets.withLock { $0 } == 1)
        feed.turn(to: 1)
        #expect(try await sync.catchUp() == 2, "B still serves")
    }

    @Test func test_aVeryCommonWordIsCountedExactly_andEveryPageIsServed() async throws {
        let index = try SQLiteSearchIndex()
        let count = 1_205
        let posts = (1...count).map { upsert(Int64($0), Post(title: "common \($0)", content: $0 == 7 ? "rare" : "")) }
        try await catchUp(index, posts, head: Int64(count))
        let common = try await index.search("common", limit: 10, offset: 0)
        #expect(common.total == count && common.totalIsExact)
        #expect(common.hits.count == 10, "the page is full")
        let rare = try await index.search("rare", limit: 10, offset: 0)
        #expect(rare.total == 1 && rare.totalIsExact && rare.hits.map(\.title) == ["common 7"])
        let last = try await index.search("common", limit: 10, offset: count - 3)
        #expect(last.hits.count == 3 && last.total == count, "the last page is served")
    }

    @Test func test_aMatchInTheTitleRanksAboveOneInTheContent() async throws {
        let index = try SQLiteSearchIndex()
        let inContent = Post(title: "Weather report", content: "A long text that mentions swift once among many other words here")
        let inTitle = Post(title: "Swift", content: "Something else entirely")
        try await catchUp(index, [upsert(1, inContent), upsert(2, inTitle)], head: 2)
        #expect(try await titles(index, "swift") == ["Swift", "Weather report"])
    }

    @Test func test_theSnippetHighlightsWhatMatched() async throws {
        let index = try SQLiteSearchIndex()
        try await catchUp(index, [upsert(1, Post(title: "Notes", content: "The quick brown fox jumps"))], head: 1)
        let hit = try #require(try await index.search("brown", limit: 10, offset: 0).hits.first)
        #expect(highlighted(hit) == ["brown"])
    }

    @Test func test_aSnippetIsOneLine_withItsHighlightsStillInPlace() async throws {
        let index = try SQLiteSearchIndex()
        let content = "The quick\n\n   brown\t\u{1}\u{1}fox jumps\r\n"
        try await catchUp(index, [upsert(1, Post(title: "Notes", content: content))], head: 1)
        let hit = try #require(try await index.search("brown", limit: 10, offset: 0).hits.first)
        #expect(hit.snippet == "The quick brown fox jumps")
        #expect(highlighted(hit) == ["brown"])
    }

    @Test func test_markerCharactersInAPostNeverMakeAFalseHighlight() async throws {
        let index = try SQLiteSearchIndex()
        try await catchUp(index, [upsert(1, Post(title: "t", content: "\u{E000}secret\u{E001} swift"))], head: 1)
        let hit = try #require(try await index.search("swift", limit: 10, offset: 0).hits.first)
        #expect(highlighted(hit) == ["swift"])
    }

    @Test func test_anEditChangesWhatIsFound_andADeleteRemovesIt() async throws {
        let index = try SQLiteSearchIndex()
        var post = Post(title: "Alpha", content: "first words")
        try await catchUp(index, [upsert(1, post)], head: 1)
        post.title = "Beta"
        try await catchUp(index, [upsert(2, post)], head: 2)
        #expect(try await titles(index, "alpha").isEmpty)
        #expect(try await titles(index, "beta") == ["Beta"])
        try await catchUp(index, [PostChange(sequence: 3, uid: post.uid, kind: .delete)], head: 3)
        #expect(try await titles(index, "beta").isEmpty)
        #expect(try await index.documentCount() == 0)
    }

    @Test func test_aPostChangedSeveralTimesInOnePage_leavesItsLastVersion_orNothingOnceDeleted() async throws {
        let index = try SQLiteSearchIndex()
        try await index.loadRanking()
        var kept = Post(title: "First", content: "one")
        var gone = Post(title: "Doomed", content: "two")
        var page = [upsert(1, kept), upsert(2, gone)]
        kept.title = "Second"
        page.append(upsert(3, kept))
        gone.title = "Still doomed"
        page += [upsert(4, gone), PostChange(sequence: 5, uid: gone.uid, kind: .delete)]
        kept.title = "Third"
        page.append(upsert(6, kept))
        try await catchUp(index, page, head: 6)
        #expect(try await titles(index, "first").isEmpty)
        #expect(try await titles(index, "second").isEmpty)
        #expect(try await titles(index, "third") == ["Third"])
        #expect(try await titles(index, "doomed").isEmpty)
        #expect(try await index.documentCount() == 1)
        kept.title = "Fourth"
        try await catchUp(index, [upsert(7, kept)], head: 7)
        #expect(try await titles(index, "third").isEmpty, "the next page finds the document the last one left")
        #expect(try await index.documentCount() == 1)
    }

    @Test func test_replayedAndOlderChangesAreSkipped() async throws {
        let index = try SQLiteSearchIndex()
        var post = Post(title: "Current", content: "")
        let current = upsert(5, post)
        try await catchUp(index, [current], head: 5)
        post.title = "Stale"
        try await index.apply([upsert(4, post)], position: IndexPosition(applied: 5, database: nil))
        try await index.apply([current], position: IndexPosition(applied: 3, database: nil))
        #expect(try await titles(index, "current") == ["Current"], "an older change is not applied")
        #expect(try await index.position().applied == 5, "the applied sequence never goes back")
        #expect(try await index.documentCount() == 1)
    }

    @Test func test_anEmptyPageMeansCaughtUpToHead() async throws {
        let index = try SQLiteSearchIndex()
        #expect(try await catchUp(index, [], head: 9) == 9)
        #expect(try await index.position().applied == 9)
    }

    @Test(arguments: [
        #"""#, "*", "NEAR(a b", "a AND", "-x", "^start", "col:", "\u{0}", "😀 emoji", String(repeating: "ab ", count: 160), "(((", "a\"b\"c",
    ])
    func test_whateverAPersonTypesNeverCausesAnError(_ text: String) async throws {
        let index = try SQLiteSearchIndex()
        let post = Post(title: "a b c", content: "start x")
        try await catchUp(index, [upsert(1, post)], head: 1)
        let results = try await index.search(text, limit: 10, offset: 0)
        // An answer, and a sound one: only the post there is, counted as found.
        #expect(results.hits.allSatisfy { $0.uid == post.uid }, "\(results)")
        #expect(results.total <= 1 && results.hits.count == results.total && results.totalIsExact, "\(results)")
        #expect(results.sequence == 1)
    }
}
