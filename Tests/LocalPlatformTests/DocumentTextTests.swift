import Foundation
import GRDB
@testable import LocalPlatform
import TestSupport
import TestTraits
import Testing

/// `DocumentText` stores a search document's title and content in one
/// blob: read back exactly, compressed once trained, and a damaged blob is
/// an error that says so, never a wrong text or a crash.
@Suite("A search document's stored text", .ownThread, .timeLimit(.minutes(5)))
struct DocumentTextTests {
    /// Texts of words drawn from a small vocabulary (as posts share theirs),
    /// and some of every kind a post may hold.
    static func texts(count: Int) -> [(title: String, content: String)] {
        let words = ["kernel", "module", "socket", "the", "of", "a", "file", "système", "進程", "🙂", "line", "x"]
        var generator = SystemRandomNumberGenerator()
        let sentence = { (count: Int) in
            (0..<count).map { _ in words.randomElement(using: &generator)! }.joined(separator: " ")
        }
        let special: [(String, String)] = [
            ("", ""), ("", "only content"), ("only a title", ""), (String(repeating: "long title ", count: 40), "a title past 127 bytes"),
            (String(repeating: "é", count: 10_000), "a title past 16,383 bytes"),
            (String(repeating: "t", count: 127), "127"), (String(repeating: "t", count: 128), "128"),
            (String(repeating: "t", count: 16_383), "16,383"), (String(repeating: "t", count: 16_384), "16,384"),
            ("tab\tand\nnewline", "nul \u{0} inside"),
        ]
        return special + (0..<count).map { _ in (sentence(Int.random(in: 1...8)), sentence(Int.random(in: 0...80))) }
    }

    @Test func test_everyTextIsReadBackExactly_plainOrCompressed() async throws {
        let texts = Self.texts(count: 3_000)
        let dictionary = try #require(DocumentText.train(on: texts.map { DocumentText.text(title: $0.title, content: $0.content) }))
        for text in [DocumentText(), DocumentText(dictionary: dictionary)] {
            for (title, content) in texts {
                let read = try text.decode(text.encode(title: title, content: content))
                #expect(read.title == title && read.content == content)
            }
        }
    }

    @Test func test_withItsDictionary_textTakesLessThanHalfItsBytes() async throws {
        let texts = Self.texts(count: 3_000)
        let samples = texts.map { DocumentText.text(title: $0.title, content: $0.content) }
        let dictionary = try #require(DocumentText.train(on: samples))
        let text = DocumentText(dictionary: dictionary)
        let stored = texts.map { text.encode(title: $0.title, content: $0.content) }
        let raw = texts.reduce(0) { $0 + $1.title.utf8.count + $1.content.utf8.count }
        #expect(stored.reduce(0) { $0 + $1.count } * 2 < raw)
        #expect(stored.filter { $0.first == DocumentText.compressed }.count > texts.count * 9 / 10)
        // A text compression would not shrink is stored as it is.
        #expect(text.encode(title: "", content: "").count == 2)
    }

    @Test func test_aFewShortTexts_trainNoDictionary_andStayPlain() async {
        #expect(DocumentText.train(on: [Data("a".utf8), Data("b".utf8)]) == nil)
    }

    @Test func test_aDamagedBlob_isAnErrorNamingWhy() async throws {
        let texts = Self.texts(count: 1_000)
        let dictionary = try #require(DocumentText.train(on: texts.map { DocumentText.text(title: $0.title, content: $0.content) }))
        let text = DocumentText(dictionary: dictionary)
        let compressed = text.encode(title: "kernel module", content: String(repeating: "the socket of the file ", count: 20))
        #expect(compressed.first == DocumentText.compressed)
        let damaged: [(Data, String)] = [
            (Data(), "an empty blob"),
            (Data([7, 1, 2]), "unknown way"),
            (compressed, "no dictionary"),
            (Data([DocumentText.plain, 0x85]), "ends early"),
            (Data([DocumentText.plain, 9, 0x61]), "longer than the text"),
            (Data([DocumentText.plain, 1, 0xFF]), "not UTF-8"),
        ]
        for (blob, why) in damaged {
            let reader = why == "no dictionary" ? DocumentText() : text
            #expect {
                _ = try reader.decode(blob)
            } throws: { error in
                (error as? DatabaseError)?.resultCode == .SQLITE_CORRUPT && (error as? DatabaseError)?.message?.contains(why) == true
            }
        }
        // Trained on other words (the same draw of these few words may train the very same dictionary, id and all).
        let other = Self.texts(count: 1_000).map { DocumentText.text(title: $0.title.uppercased(), content: String($0.content.reversed())) }
        let trained = try #require(DocumentText.train(on: other))
        let another = DocumentText(dictionary: trained)
        try #require(another.id != text.id, "another dictionary, by its id")
        #expect(throws: DatabaseError.self, "a frame of another dictionary") { _ = try another.decode(compressed) }
        for cut in [2, compressed.count / 2, compressed.count - 1] {
            #expect(throws: DatabaseError.self, "a frame cut at \(cut) bytes") { _ = try text.decode(compressed.prefix(cut)) }
        }
    }
}
