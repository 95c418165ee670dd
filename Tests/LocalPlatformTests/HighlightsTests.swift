@testable import LocalPlatform
import TestSupport
import TestTraits
import Testing

@Suite("Snippet highlights", .ownThread, .timeLimit(.minutes(5)))
struct HighlightsTests {
    private let open = "\u{E000}", close = "\u{E001}"

    @Test func test_spacesAndControlsOfAnyKindBecomeOneSpace_andRangesCountScalars() async {
        let marked = "\u{00A0}\té\u{0085}\u{0080}\(open)naïve\(close)\u{2028}\u{7F} x\(open)y\(close)\n"
        let (text, ranges) = Highlights.split(marked)
        #expect(text == "é naïve xy")
        let scalars = Array(text.unicodeScalars)
        #expect(ranges.map { String(String.UnicodeScalarView(scalars[$0])) } == ["naïve", "y"])
    }

    @Test func test_anEmptyHighlightIsDropped_andAnUnclosedOneIgnored() async {
        #expect(Highlights.split("a\(open)\(close)b \(open)c").1.isEmpty)
        #expect(Highlights.split("a\(open)\(close)b \(open)c").0 == "ab c")
    }
}
