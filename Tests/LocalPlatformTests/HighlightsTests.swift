import Domain
@testable import LocalPlatform
@testable import Search
import TestSupport
import TestTraits
import Testing

@Suite("Snippet highlights", .ownThread, .timeLimit(.minutes(5)))
struct HighlightsTests {
    private func line(_ parts: [(String, highlighted: Bool)]) -> (String, [String]) {
        var line = Highlights(capacity: 64)
        for (part, highlighted) in parts {
            var part = part
            part.withUTF8 { bytes in highlighted ? line.appendHighlighted(bytes[...]) : line.append(bytes[...]) }
        }
        let text = line.text()
        let scalars = Array(text.unicodeScalars)
        return (text, line.ranges.map { String(String.UnicodeScalarView(scalars[$0])) })
    }

    @Test func test_spacesAndControlsOfAnyKindBecomeOneSpace_andRangesCountScalars() async {
        let (text, marks) = line([
            ("\u{00A0}\té\u{0085}\u{0080}", false), ("naïve", true), ("\u{2028}\u{7F} x", false), ("y", true), ("\n", false),
        ])
        #expect(text == "é naïve xy")
        #expect(marks == ["naïve", "y"])
    }

    @Test func test_aHighlightThatShowsAsNothingIsDropped() async {
        let (text, marks) = line([("a", false), ("", true), ("b ", false), ("\u{7F}", true), ("c", false)])
        #expect(text == "ab c" && marks.isEmpty)
    }

    /// What a post holds is what it shows: private-use characters (once
    /// the markers of highlights) are indexed, kept and shown as written.
    @Test func test_privateUseCharactersInAPost_areKeptAsWritten() async throws {
        let index = try SQLiteSearchIndex()
        let post = Post(title: "Marks", content: "before \u{E000} needle \u{E001} after")
        try await index.apply([PostChange(sequence: 1, uid: post.uid, kind: .upsert(post))], position: IndexPosition(applied: 1, database: nil))
        let hit = try #require(try await index.search("needle", limit: 10, offset: 0).hits.first)
        #expect(hit.snippet == "before \u{E000} needle \u{E001} after")
        let scalars = Array(hit.snippet.unicodeScalars)
        #expect(hit.highlights.map { String(String.UnicodeScalarView(scalars[$0])) } == ["needle"])
        #expect(try await index.search("\u{E000}", limit: 10, offset: 0).total == 1, "a word of its own, as FTS5 reads it")
    }
}
