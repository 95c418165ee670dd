import Domain
import Foundation
import TestSupport
import TestTraits
import Testing

@Suite("Import rules", .ownThread, .timeLimit(.minutes(5)))
struct ImportRulesTests {
    @Test func test_theSampleShapeUsesBodyAsContent_andItsUIDComesFromUserIdAndId() async throws {
        let entry = ImportEntry(label: "line 1", userId: 1, id: 7, title: "sunt aut", body: "quia et")
        let post = try ImportRules.post(from: entry)
        #expect(post.title == "sunt aut" && post.content == "quia et")
        #expect(post.uid == ImportRules.sampleUID(userId: 1, id: 7))
        #expect(try ImportRules.post(from: entry).uid == post.uid, "the same entry always gets the same uid")
    }

    @Test func test_givenUIDsAndDatesAreKept() async throws {
        let uid = UUID()
        let post = try ImportRules.post(from: ImportEntry(label: "line 1", uid: uid.uuidString, title: "t", createDate: "2026-01-02T03:04:05Z"))
        #expect(post.uid == uid)
        #expect(post.createDate == Date(timeIntervalSince1970: 1_767_323_045))
    }

    @Test(arguments: [
        (ImportEntry(label: "line 2", content: "x"), PostsError.invalid("line 2.title", .missing)),
        (ImportEntry(label: "entry 1", title: "   "), .invalid("entry 1.title", .empty)),
        (ImportEntry(label: "line 1", uid: "nope", title: "t"), .invalid("line 1.uid", .notUUID("nope"))),
        (ImportEntry(label: "line 1", title: "t", createDate: "soon"), .invalid("line 1.createDate", .notDate("soon"))),
    ])
    func test_aBadEntryIsNamedByItsLabel(_ entry: ImportEntry, _ expected: PostsError) async {
        #expect(throws: expected) { try ImportRules.post(from: entry) }
    }

    @Test func test_aUIDGivenTwiceIsOnePost_theLaterEntryWinning_inTheOrderGiven() async {
        let uid = UUID()
        let posts = [Post(uid: uid, title: "old", content: ""), Post(title: "other", content: ""), Post(uid: uid, title: "new", content: "")]
        #expect(ImportRules.lastOfEachUID(posts).map(\.title) == ["other", "new"])
    }

    @Test func test_batchesHoldAtMostAThousandPosts_andTheirByteBudget() async {
        let small = (0..<2_500).map { Post(title: "p\($0)", content: "") }
        #expect(ImportRules.batches(of: small).map(\.count) == [1_000, 1_000, 500])
        let big = (0..<50).map { _ in Post(title: "t", content: String(repeating: "x", count: PostRules.maxContentBytes)) }
        let batches = ImportRules.batches(of: big)
        #expect(batches.count > 1 && batches.flatMap { $0 }.count == 50)
        #expect(batches.allSatisfy { $0.reduce(0) { $0 + $1.content.utf8.count + $1.title.utf8.count } <= PostRules.maxBatchBytes })
    }
}
