@testable import Client
import TestSupport
import TestTraits
import Testing

/// What the full-screen interface draws of a post's text: never a control
/// character or a bidirectional override a terminal would obey.
@Suite("Interface text", .ownThread, .timeLimit(.minutes(5)))
struct StyleTests {
    @Test(arguments: ["\u{1B}[2J", "\u{07}", "\u{9B}31m", "\u{202E}", "\u{2066}", "\u{7F}"])
    func test_whatATerminalWouldObey_isDrawnAsADot(_ control: String) async {
        let drawn = Style.fit("a\(control)b", 40)
        #expect(drawn.hasPrefix("a·") && drawn.hasSuffix("b"), "\(drawn.debugDescription)")
        #expect(!drawn.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" || $0 == "\u{2066}" })
    }

    @Test func test_lineBreaksAndTabsBecomeSpaces_andOtherTextStays() async {
        #expect(Style.fit("one\ntwo\tthree\r\nfour émoji ✓", 40) == "one two three four émoji ✓")
        #expect(Style.highlighted("x\u{1B}[31my", [0..<1], width: 20).contains("·[31my"))
    }
}
