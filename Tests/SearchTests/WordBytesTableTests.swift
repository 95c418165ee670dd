import Foundation
@testable import Search
import TestSupport
import TestTraits
import Testing

/// Indexing looks each word up by its bytes: every word recorded is found
/// with its own stem number however the table grew, and no other word is,
/// not a prefix, an extension or a word that differs in one byte.
@Suite("Words looked up by their bytes", .ownThread, .timeLimit(.minutes(2)))
struct WordBytesTableTests {
    private func lookUp(_ word: String, in table: WordBytesTable) -> Int32? {
        var word = word
        return word.withUTF8 { table.stem(of: $0) }
    }

    @Test func test_everyWordRecorded_isFoundWithItsStem_andNoOtherWordIs() async throws {
        var random = SeededGenerator(seed: 7)
        let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789é")
        // Lengths around the hash's 8-byte steps, and longer; the table grows from 1,024 slots many times.
        var words = Set<String>()
        while words.count < 20_000 {
            words.insert(String((0..<Int.random(in: 1...24, using: &random)).map { _ in letters.randomElement(using: &random)! }))
        }
        let recorded = Array(words)
        var table = WordBytesTable()
        for (number, word) in recorded.enumerated() {
            var word = word
            let new = word.withUTF8 { table.insert($0, stem: Int32(number)) }
            #expect(new)
        }
        #expect(table.count == recorded.count)
        let wrong = recorded.enumerated().filter { lookUp($0.element, in: table) != Int32($0.offset) }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
        let others = recorded.prefix(2_000).flatMap { word in [word + "s", String(word.dropLast()), "x" + word, String(word.reversed()) + "é"] }
        let found = others.filter { !words.contains($0) && lookUp($0, in: table) != nil }
        #expect(found.isEmpty, "\(found.prefix(5))")
        #expect(lookUp("", in: table) == nil || words.contains(""))
    }

    @Test func test_aWordRecordedTwice_keepsItsFirstStem() async throws {
        var table = WordBytesTable()
        var word = "running"
        #expect(word.withUTF8 { table.insert($0, stem: 3) }, "new")
        #expect(!word.withUTF8 { table.insert($0, stem: 9) }, "already recorded")
        #expect(table.count == 1)
        #expect(lookUp("running", in: table) == 3)
    }
}
