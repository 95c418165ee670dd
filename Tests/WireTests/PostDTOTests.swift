import Domain
import Foundation
import TestSupport
import TestTraits
import Testing
import Wire

@Suite("Posts on the wire", .ownThread, .timeLimit(.minutes(5)))
struct PostDTOTests {
    @Test func test_aPostRoundTripsThroughItsDTO_keepingBothDatesExactToTheMillisecond() async throws {
        let created = try PostDate.parse("9999-12-31T23:59:59.999Z", field: "d")
        let post = Post(
            uid: UUID(), title: "t", content: "c", createDate: created, updateDate: try PostDate.parse("0001-01-01T00:00:00.001Z", field: "d"))
        let dto = PostDTO(domain: post)
        #expect(dto.createDate == "9999-12-31T23:59:59.999Z" && dto.updateDate == "0001-01-01T00:00:00.001Z")
        let back = try dto.toDomain()
        #expect(back.uid == post.uid && back.title == "t" && back.content == "c")
        #expect(PostDate.milliseconds(back.createDate) == PostDate.latest)
    }

    @Test func test_aBadUIDOrDateNamesTheField() async {
        #expect(throws: PostsError.invalid("post.uid", .notUUID("x"))) { try PostDTO(uid: "x", title: "t", content: "").toDomain() }
        #expect(throws: PostsError.invalid("post.createDate", .notDate("yesterday"))) {
            try PostDTO(uid: UUID().uuidString, title: "t", content: "", createDate: "yesterday").toDomain()
        }
        #expect(throws: PostsError.invalid("posts[2].createDate", .dateOutOfRange("0000-12-31T23:59:59.999Z"))) {
            try PostDTO(uid: UUID().uuidString, title: "t", content: "", createDate: "0000-12-31T23:59:59.999Z").toDomain(field: "posts[2]")
        }
        #expect(
            throws: PostsError.invalid("post.updateDate", .dateOutOfRange("9999-12-31T23:59:59.999-01:00")), "an offset can carry a date past the end"
        ) {
            try PostDTO(uid: UUID().uuidString, title: "t", content: "", updateDate: "9999-12-31T23:59:59.999-01:00").toDomain()
        }
    }

    @Test func test_aDateOutsideTheRangeInParams_isInvalidParamsNamingTheField() async throws {
        let body =
            #"{"jsonrpc":"2.0","id":1,"method":"m","params":{"post":{"uid":"\#(UUID().uuidString)","title":"t","content":"","#
            + #""createDate":"0000-12-31T23:59:59.999Z"}}}"#
        let params = try JSONRPC.decodeRequest(Data(body.utf8)).get().params(SaveParams.self)
        let error = #expect(throws: PostsError.self) { try params.post.toDomain() }
        #expect(error.flatMap { JSONRPCError($0).data?["field"] } == "params.post.createDate")
        #expect(error.flatMap { JSONRPCError($0).data?["reason"] } == "dateOutOfRange")
    }

    @Test func test_aPageNamesTheEntryWhoseDateIsWrong() async {
        let good = PostDTO(uid: UUID().uuidString, title: "t", content: "", createDate: "2026-11-22T12:00:00.000Z")
        var bad = good
        bad.createDate = "yesterday"
        #expect(throws: PostsError.invalid("posts[1].createDate", .notDate("yesterday"))) {
            try PageResult(posts: [good, bad], nextCursor: nil).toDomain()
        }
    }

    @Test func test_wireDateIsPostDate() async throws {
        let date = try WireDate.parse("2026-11-22T12:00:00.123+02:00", field: "d")
        #expect(WireDate.format(date) == "2026-11-22T10:00:00.123Z" && PostDate.format(date) == WireDate.format(date))
    }
}
