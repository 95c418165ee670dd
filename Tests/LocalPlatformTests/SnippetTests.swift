import Domain
import Foundation
@testable import LocalPlatform
@testable import Search
import TestSupport
import TestTraits
import Testing

/// A snippet is made for each hit on the page from where its phrases
/// matched: 16 tokens of the best column, around the matches.
@Suite("Snippets", .ownThread, .timeLimit(.minutes(5)))
struct SnippetTests {
    private func at(_ phrase: Int, _ column: Int, _ token: Int, tokens: Int = 1) -> PhraseInstance {
        PhraseInstance(phrase: phrase, column: column, tokens: token..<(token + tokens))
    }

    @Test func test_theWindowHoldsTheMostDifferentPhrases_withWhatItHoldsInItsMiddle() async {
        // One phrase alone at 2; both phrases at 40 and 45.
        let window = Snippet.window([at(0, 1, 2), at(0, 1, 40), at(1, 1, 45)])
        #expect(window?.column == 1)
        // The matches span tokens 40-45 (6 tokens); the 10 left over are split, 5 before.
        #expect(window?.start == 35)
    }

    @Test func test_moreMatchesWin_whenThePhrasesAreAsMany() async {
        let window = Snippet.window([at(0, 1, 3), at(0, 1, 30), at(0, 1, 33), at(0, 1, 36)])
        #expect(window?.start == 30 - (16 - 7) / 2)
    }

    @Test func test_theContentWinsATieWithTheTitle_theBetterTitleWins_andNoMatchesMeanNoWindow() async {
        #expect(Snippet.window([at(0, 1, 0), at(0, 0, 0)])?.column == 1, "the title is shown beside the snippet anyway")
        #expect(Snippet.window([at(0, 1, 0), at(0, 0, 0), at(1, 0, 1)])?.column == 0, "more different phrases in the title")
        #expect(Snippet.window([]) == nil)
    }

    /// `count` words "w0 w1 …", with the byte range of each.
    private func words(_ count: Int) -> (String, [Range<Int>]) {
        var text = "", offsets: [Range<Int>] = []
        for index in 0..<count {
            if index > 0 { text += " " }
            let word = "w\(index)"
            offsets.append(text.utf8.count..<(text.utf8.count + word.utf8.count))
            text += word
        }
        return (text, offsets)
    }

    private func marked(_ text: String, _ offsets: [Range<Int>], complete: Bool, start: Int, _ instances: [PhraseInstance]) -> (String, [String]) {
        var text = text
        let (snippet, ranges) = text.withUTF8 { Snippet.cut($0, offsets: offsets, complete: complete, start: start, highlighting: instances) }
        let scalars = Array(snippet.unicodeScalars)
        return (snippet, ranges.map { String(String.UnicodeScalarView(scalars[$0])) })
    }

    @Test func test_textLeftOutOnEitherSideIsAnEllipsis_andPhrasesAreMarkedWhole() async {
        let (text, offsets) = words(40)
        // The tokenizer was asked for 26 tokens and stopped: there is more.
        let (snippet, marks) = marked(
            text, Array(offsets.prefix(26)), complete: false, start: 10,
            [at(0, 1, 12, tokens: 2), at(1, 1, 20), at(0, 1, 30)])
        #expect(snippet == "…" + (10..<26).map { "w\($0)" }.joined(separator: " ") + "…")
        #expect(marks == ["w12 w13", "w20"], "a phrase is one highlight; a match outside the window none")
    }

    @Test func test_aWindowPastTheEndMovesBack_andTheWholeTextNeedsNoEllipsis() async {
        let (text, offsets) = words(20)
        let (end, _) = marked(text, offsets, complete: true, start: 12, [at(0, 1, 19)])
        #expect(end == "…" + (4..<20).map { "w\($0)" }.joined(separator: " "))
        let (short, marks) = marked("  Hello, world!  ", [2..<7, 9..<14], complete: true, start: 0, [at(0, 0, 1)])
        #expect(short == "Hello, world!" && marks == ["world"])
    }

    @Test func test_aLongPostShowsSixteenWordsAroundTheMatch() async throws {
        let index = try SQLiteSearchIndex()
        let content = (0..<2_000).map { $0 == 1_000 ? "needle" : "hay\($0)" }.joined(separator: " ")
        let post = Post(title: "Stack", content: content)
        try await index.apply([PostChange(sequence: 1, uid: post.uid, kind: .upsert(post))], position: IndexPosition(applied: 1, database: nil))
        let hit = try #require(try await index.search("needle", limit: 10, offset: 0).hits.first)
        #expect(hit.snippet == "…" + (993..<1_009).map { $0 == 1_000 ? "needle" : "hay\($0)" }.joined(separator: " ") + "…")
        let scalars = Array(hit.snippet.unicodeScalars)
        #expect(hit.highlights.map { String(String.UnicodeScalarView(scalars[$0])) } == ["needle"])
    }

    @Test func test_everyHitOfADeepPageHasItsSnippet() async throws {
        let index = try SQLiteSearchIndex()
        let posts = (0..<300).map { Post(title: "Post \($0)", content: "common " + String(repeating: "word ", count: $0 % 17)) }
        let changes = posts.enumerated().map { PostChange(sequence: Int64($0.offset + 1), uid: $0.element.uid, kind: .upsert($0.element)) }
        try await index.apply(changes, position: IndexPosition(applied: 300, database: nil))
        let page = try await index.search("common", limit: 20, offset: 250)
        #expect(page.hits.count == 20 && page.total == 300)
        for hit in page.hits {
            let scalars = Array(hit.snippet.unicodeScalars)
            #expect(hit.highlights.map { String(String.UnicodeScalarView(scalars[$0])) } == ["common"], "\(hit.title)")
        }
    }
}
