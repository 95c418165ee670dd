import Foundation
@testable import LocalPlatform
@testable import Search
import TestSupport
import TestTraits
import Testing

/// A post's words packed in one buffer, as indexing takes them, are the
/// words the tokenizer finds, one by one, in order: in ASCII cut by the
/// index itself, elsewhere by FTS5, and where folding makes a word longer
/// than it was in the text (a few letters' lower case is, in UTF-8).
@Suite("A post's words packed", .ownThread, .timeLimit(.minutes(2)))
struct PackedWordsTests {
    @Test(arguments: [
        "", "   ", "a", "a b c d e f g", "The QUICK brown Fox, 42 times!", "x" + String(repeating: " y", count: 500),
        "Straße ÀÉÎ naïve café", "ȺȺȺ Ⱥb ȾȾ", "Ⱥ Ⱥ Ⱥ Ⱥ Ⱥ Ⱥ Ⱥ Ⱥ", "日本語 テキスト mixed ASCII", "emoji 🙂 between words",
    ])
    func test_packedWords_areTheWordsTheTokenizerFinds(text: String) async throws {
        let tokenizer = try ImpactTokenizer.fts5()
        var packed: [String] = []
        try tokenizer.packedWords(in: text).forEach { packed.append(String(decoding: $0, as: UTF8.self)) }
        #expect(packed == (try tokenizer.words(in: text)))
    }

    /// Words that do not fit the room made for them in place (more of them,
    /// or longer, than the text's bytes allow for) are all kept, in order.
    @Test func test_wordsPastTheRoomMadeForThem_areAllKept() async throws {
        let words = ["ABC", "de", "f", "ghij"]
        let packed = try PackedWords(fromTextOf: 2) { each in
            for word in words {
                var word = word
                try word.withUTF8 { try each($0) }
            }
        }
        var found: [String] = []
        packed.forEach { found.append(String(decoding: $0, as: UTF8.self)) }
        #expect(found == ["abc", "de", "f", "ghij"])
    }
}
