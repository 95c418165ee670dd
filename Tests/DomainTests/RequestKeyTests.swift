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
        #expect(throws: PostsError.invalid("requestKey", .empty)) { try RequestKey("") }
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
        #expect(KeyedWrite.save(post).operation != KeyedWrite.delete(uid: post.uid).operation)
    }

    @Test func test_aSavesOperation_namesWhatItWrote_butNotItsDates() async throws {
        let post = Post(title: "t", content: "c", createDate: Date(timeIntervalSince1970: 1_700_000_000))
        var later = post
        later.createDate = Date(timeIntervalSince1970: 1_800_000_000)
        later.updateDate = Date(timeIntervalSince1970: 1_800_000_001)
        #expect(KeyedWrite.save(post).operation == KeyedWrite.save(later).operation, "a retry read again is the same write")
        var retitled = post
        retitled.title = "t2"
        #expect(KeyedWrite.save(post).operation != KeyedWrite.save(retitled).operation, "other content under the same key is another write")
        var moved = post
        (moved.title, moved.content) = ("tc", "")
        #expect(KeyedWrite.save(post).operation != KeyedWrite.save(moved).operation, "text moved between fields is other content")
        #expect(KeyedWrite.batch([post]).operation != KeyedWrite.batch([retitled]).operation)
        #expect(KeyedWrite.save(post).operation.hasPrefix("save \(post.uid.text) "))
    }

    @Test func test_aKeysDerivedUID_isTheSameEveryTime_aVersion8UUID_andAnotherKeysIsAnother() async throws {
        let key = try RequestKey("create-42")
        #expect(key.derivedUID == (try RequestKey("create-42")).derivedUID)
        #expect(key.derivedUID != (try RequestKey("create-43")).derivedUID)
        let text = key.derivedUID.uuidString
        #expect(Array(text)[14] == "8", "version 8: \(text)")
        #expect("89AB".contains(Array(text)[19]), "RFC 9562 variant: \(text)")
        // The same on every platform and in every process: pinned.
        #expect(Fingerprint().text == "cbf29ce484222325")
        var print = Fingerprint()
        print.add(UInt8(ascii: "a"))
        #expect(print.text == "af63dc4c8601ec8c", "FNV-1a 64 of \"a\"")
    }
}
