import Domain
import Foundation
import LocalPlatform
import Testing

@Suite("Search index (FTS5)")
struct LocalSearchIndexTests {
    private func upsert(_ sequence: Int64, _ post: Post) -> PostChange {
        PostChange(sequence: sequence, uid: post.uid, kind: .upsert(post))
    }

    private func titles(_ index: LocalSearchIndex, _ query: String) async throws -> [String] {
        try await index.search(query, limit: 50, offset: 0).hits.map(\.title)
    }

    @Test func test_wordsAreFound_theLastAsAPrefix_andStemmed() async throws {
        let index = try LocalSearchIndex()
        let hello = Post(title: "Hello world", content: "Running in the rain")
        let other = Post(title: "Other", content: "Nothing to see")
        try await index.apply(PostChanges(changes: [upsert(1, hello), upsert(2, other)], head: 2))
        #expect(try await titles(index, "hello") == ["Hello world"])
        #expect(try await titles(index, "wor") == ["Hello world"], "the last word is a prefix")
        #expect(try await titles(index, "run") == ["Hello world"], "porter stemming: running ~ run")
        #expect(try await titles(index, "hello nothing").isEmpty, "every word must match")
        #expect(try await index.search("hello", limit: 10, offset: 0).sequence == 2)
    }

    @Test func test_anUnfinishedWordLongerThanItsStemStillFindsTheWord_andHighlightsIt() async throws {
        let index = try LocalSearchIndex()
        let post = Post(title: "Notes", content: "Running in the rain, connections everywhere")
        try await index.apply(PostChanges(changes: [upsert(1, post), upsert(2, Post(title: "Other", content: "a runway"))], head: 2))
        // Stemmed, "running" is `run` and "connections" is `connect`: these prefixes are longer.
        for typed in ["runni", "Runnin", "connectio", "rain connectio"] {
            #expect(try await titles(index, typed) == ["Notes"], "typing \(typed)")
        }
        let hit = try #require(try await index.search("runni", limit: 10, offset: 0).hits.first)
        let scalars = Array(hit.snippet.unicodeScalars)
        #expect(hit.highlights.map { String(String.UnicodeScalarView(scalars[$0])) } == ["Running"])
        #expect(try await titles(index, "\"runni\"").isEmpty, "a quoted word is a whole word")
    }

    @Test func test_aPostsDatabaseBehindTheIndex_emptiesIt_forARebuildFromZero() async throws {
        let index = try LocalSearchIndex()
        try await index.apply(PostChanges(changes: [upsert(7, Post(title: "Before the reset", content: ""))], head: 7))
        // The posts database was restored from a backup: its head is now 3.
        #expect(try await index.apply(PostChanges(changes: [], head: 3)) == 0)
        #expect(try await index.documentCount() == 0)
        #expect(try await index.apply(PostChanges(changes: [upsert(3, Post(title: "After the reset", content: ""))], head: 3)) == 3)
        #expect(try await titles(index, "reset") == ["After the reset"])
    }

    @Test func test_anotherPostsDatabase_emptiesTheIndex_evenWhenItsHeadIsAhead() async throws {
        let index = try LocalSearchIndex()
        try await index.apply(PostChanges(changes: [upsert(2, Post(title: "From the old file", content: ""))], head: 2, database: "A"))
        // A new file, filled (by an import, say) past the old head before the worker looked.
        let fresh = PostChanges(changes: [upsert(5, Post(title: "From the new file", content: ""))], head: 5, database: "B")
        #expect(try await index.apply(fresh) == 0)
        #expect(try await index.documentCount() == 0)
        let all = PostChanges(changes: [upsert(1, Post(title: "First in the new file", content: "")), fresh.changes[0]], head: 5, database: "B")
        #expect(try await index.apply(all) == 5)
        #expect(try await titles(index, "file").sorted() == ["First in the new file", "From the new file"])
        #expect(try await index.apply(PostChanges(changes: [], head: 5, database: "B")) == 5, "the same database again changes nothing")
    }

    @Test func test_aMatchInTheTitleRanksAboveOneInTheContent() async throws {
        let index = try LocalSearchIndex()
        let inContent = Post(title: "Weather report", content: "A long text that mentions swift once among many other words here")
        let inTitle = Post(title: "Swift", content: "Something else entirely")
        try await index.apply(PostChanges(changes: [upsert(1, inContent), upsert(2, inTitle)], head: 2))
        #expect(try await titles(index, "swift") == ["Swift", "Weather report"])
    }

    @Test func test_theSnippetHighlightsWhatMatched() async throws {
        let index = try LocalSearchIndex()
        try await index.apply(PostChanges(changes: [upsert(1, Post(title: "Notes", content: "The quick brown fox jumps"))], head: 1))
        let hit = try #require(try await index.search("brown", limit: 10, offset: 0).hits.first)
        let scalars = Array(hit.snippet.unicodeScalars)
        #expect(hit.highlights.map { String(String.UnicodeScalarView(scalars[$0])) } == ["brown"])
    }

    @Test func test_aSnippetIsOneLine_withItsHighlightsStillInPlace() async throws {
        let index = try LocalSearchIndex()
        let content = "The quick\n\n   brown\t\u{1}\u{1}fox jumps\r\n"
        try await index.apply(PostChanges(changes: [upsert(1, Post(title: "Notes", content: content))], head: 1))
        let hit = try #require(try await index.search("brown", limit: 10, offset: 0).hits.first)
        #expect(hit.snippet == "The quick brown fox jumps")
        let scalars = Array(hit.snippet.unicodeScalars)
        #expect(hit.highlights.map { String(String.UnicodeScalarView(scalars[$0])) } == ["brown"])
    }

    @Test func test_markerCharactersInAPostNeverMakeAFalseHighlight() async throws {
        let index = try LocalSearchIndex()
        try await index.apply(PostChanges(changes: [upsert(1, Post(title: "t", content: "\u{E000}secret\u{E001} swift"))], head: 1))
        let hit = try #require(try await index.search("swift", limit: 10, offset: 0).hits.first)
        let scalars = Array(hit.snippet.unicodeScalars)
        #expect(hit.highlights.map { String(String.UnicodeScalarView(scalars[$0])) } == ["swift"])
    }

    @Test func test_anEditChangesWhatIsFound_andADeleteRemovesIt() async throws {
        let index = try LocalSearchIndex()
        var post = Post(title: "Alpha", content: "first words")
        try await index.apply(PostChanges(changes: [upsert(1, post)], head: 1))
        post.title = "Beta"
        try await index.apply(PostChanges(changes: [upsert(2, post)], head: 2))
        #expect(try await titles(index, "alpha").isEmpty)
        #expect(try await titles(index, "beta") == ["Beta"])
        try await index.apply(PostChanges(changes: [PostChange(sequence: 3, uid: post.uid, kind: .delete)], head: 3))
        #expect(try await titles(index, "beta").isEmpty)
        #expect(try await index.documentCount() == 0)
    }

    @Test func test_replayedAndOutOfOrderChangesAreSkipped() async throws {
        let index = try LocalSearchIndex()
        var post = Post(title: "Current", content: "")
        let page = PostChanges(changes: [upsert(5, post)], head: 5)
        try await index.apply(page)
        post.title = "Stale"
        #expect(try await index.apply(PostChanges(changes: [upsert(4, post)], head: 5)) == 5, "an older change is not applied")
        #expect(try await index.apply(page) == 5)
        #expect(try await titles(index, "current") == ["Current"])
        #expect(try await index.documentCount() == 1)
    }

    @Test func test_anEmptyPageMeansCaughtUpToHead() async throws {
        let index = try LocalSearchIndex()
        #expect(try await index.apply(PostChanges(changes: [], head: 9)) == 9)
        #expect(try await index.appliedSequence() == 9)
    }

    @Test(arguments: [#"""#, "*", "NEAR(a b", "a AND", "-x", "^start", "col:", "\u{0}", "😀 emoji", String(repeating: "ab ", count: 160), "(((", "a\"b\"c"])
    func test_whateverAPersonTypesNeverCausesAnError(_ text: String) async throws {
        let index = try LocalSearchIndex()
        try await index.apply(PostChanges(changes: [upsert(1, Post(title: "a b c", content: "start x"))], head: 1))
        _ = try await index.search(text, limit: 10, offset: 0)
    }

    @Test func test_anOverlongQueryOrOffsetIsRefusedNamingTheParameter() async throws {
        let index = try LocalSearchIndex()
        await #expect(throws: PostsError.self) { try await index.search(String(repeating: "a", count: 501), limit: 10, offset: 0) }
        let error = await #expect(throws: PostsError.self) { try await index.search("a", limit: 10, offset: -1) }
        guard case .invalid(let field, _)? = error else {
            Issue.record("expected invalid offset")
            return
        }
        #expect(field == "offset")
    }
}
