import Domain
import Foundation
import TestSupport
import TestTraits
import Testing

@Suite("Request keys", .ownThread, .timeLimit(.minutes(5)))
struct RequestKeyTests {
    @Test(arguments: ["7F3C2A4E-0B6D-4C1A-9E55-3D2B1A0C9F11", "a", "client-1:write.42_x", String(repeating: "k", count: 128)])
    func test_aKeyOfTheDocumentedForm_isTaken(_ text: String) async throws {
        #expect(try RequestKey(text).text == text)
    }

    @Test func test_aKeyOfAnotherForm_isRefusedNamingTheFieldAndTheRule() async {
        #expect(throws: PostsError.invalid("_meta.requestKey", .empty)) { try RequestKey("") }
        #expect(throws: PostsError.invalid("k", .tooLong(max: 128, actual: 129, unit: .bytes))) {
            try RequestKey(String(repeating: "k", count: 129), field: "k")
        }
        for text in ["two words", "quote\"", "é", "a/b"] {
            #expect(throws: PostsError.self, "'\(text)' was taken") { try RequestKey(text) }
        }
    }

    @Test func test_aStoredAnswerReadsBackExactly_andAnotherWritesAnswerIsNotTakenForIt() async {
        let post = Post(
            title: "t", content: "c", createDate: Date(timeIntervalSince1970: 1_700_000_000.123456),
            updateDate: Date(timeIntervalSince1970: 1_800_000_000.5))
        #expect(KeyedWrite.saved(post, answer: KeyedWrite.answer(saved: post)) == post)
        #expect(KeyedWrite.saved(post, answer: KeyedWrite.answer(count: 3)) == nil)
        #expect(KeyedWrite.count(answer: KeyedWrite.answer(count: 3)) == 3)
        #expect(KeyedWrite.deleted(answer: KeyedWrite.answer(deleted: false)) == false)
        #expect(KeyedWrite.deleted(answer: KeyedWrite.answer(count: 1)) == nil)
        #expect(KeyedWrite.save(uid: post.uid).operation != KeyedWrite.delete(uid: post.uid).operation)
    }
}
