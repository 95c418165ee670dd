@testable import Client
import TestSupport
import TestTraits
import Testing

@Suite("Terminal keys and text fields", .ownThread, .timeLimit(.minutes(5)))
struct TerminalInputTests {
    @Test func test_bytesFromATerminalBecomeKeys() async {
        let bytes: [UInt8] = Array("a".utf8) + [0x1B, 0x5B, 0x41] + [0x0D, 0x7F, 0x13, 0x09] + [0x1B] + [0x1B, 0x5B, 0x36, 0x7E] + Array("é".utf8)
        #expect(KeyDecoder.keys(in: bytes) == [.character("a"), .up, .enter, .backspace, .control("s"), .tab, .escape, .pageDown, .character("é")])
    }

    @Test func test_sequencesWeDoNotKnowDoNothing_ratherThanActAsEscape() async {
        let f1: [UInt8] = [0x1B, 0x4F, 0x50], insert: [UInt8] = [0x1B, 0x5B, 0x32, 0x7E]
        #expect(KeyDecoder.keys(in: f1 + insert + Array("x".utf8)) == [.character("x")])
    }

    @Test func test_controlCharactersInAPostNeverReachTheTerminal() async {
        #expect(Style.fit("a\u{1B}[2Jb\u{7}", 20) == "a·[2Jb·")
        #expect(TextField("one\r\ntwo", multiline: true).lines(width: 20, focused: false) == ["one", "two"])
    }

    @Test func test_aFieldEditsAtItsCursor() async {
        var field = TextField("helo")
        for key in [Key.left, .character("l"), .end, .character("!"), .home, .delete] { _ = field.handle(key) }
        #expect(field.text == "ello!")
        let usedEnter = field.handle(.enter)
        #expect(!usedEnter, "a one-line field leaves Enter to the screen")
        var content = TextField("a", multiline: true)
        _ = content.handle(.enter)
        _ = content.handle(.character("b"))
        #expect(content.text == "a\nb")
    }

    @Test func test_upAndDownMoveBetweenLinesOfContent_keepingTheColumn() async {
        var content = TextField("first line\nab\nthird line", multiline: true)
        _ = content.handle(.up)  // from the end of "third line" to the end of "ab"
        _ = content.handle(.character("c"))
        _ = content.handle(.up)  // column 3 of "first line"
        _ = content.handle(.character("|"))
        _ = content.handle(.down)
        _ = content.handle(.down)
        _ = content.handle(.character("^"))
        #expect(content.text == "fir|st line\nabc\nthi^rd line", "through the shorter line, the column is that line's end")
    }

    @Test func test_aFieldWrapsToTheWidth_andShowsItsCursor() async {
        let field = TextField("abcdef")
        #expect(field.lines(width: 4, focused: false) == ["abcd", "ef"])
        #expect(field.lines(width: 4, focused: true).last == "ef" + Style.reverse(" "), "the cursor sits after the text")
    }

    @Test func test_wideCharactersTakeTwoColumns_soLinesStillFit() async {
        #expect(Style.fit("日本語のタイトル", 7) == "日本語…", "three wide characters and the ellipsis: 7 columns")
        #expect(Style.width(Style.pad("漢字", 6)) == 6)
        #expect(TextField("日本語", multiline: true).lines(width: 4, focused: false) == ["日本", "語"])
    }

    @Test func test_highlightsMarkTheMatchedWords_andTextIsCutToTheWidth() async {
        #expect(Style.highlighted("the quick fox", [4..<9], width: 40) == "the " + Style.highlight("quick") + " fox")
        #expect(Style.fit("a long title", 6) == "a lon…")
    }
}
