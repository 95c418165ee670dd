import Domain
import Foundation
import Testing
import Wire

@Suite("Posts on the wire")
struct PostDTOTests {
    @Test func test_aPostRoundTripsThroughItsDTO_keepingBothDatesToTheMillisecond() throws {
        let created = Date(timeIntervalSince1970: 1_700_000_000.123)
        let post = Post(uid: UUID(), title: "t", content: "c", createDate: created, updateDate: created.addingTimeInterval(60.5))
        let back = try PostDTO(domain: post).toDomain()
        #expect(back.uid == post.uid && back.title == "t" && back.content == "c")
        #expect(abs(back.createDate.timeIntervalSince(post.createDate)) < 0.001)
        #expect(abs(back.updateDate.timeIntervalSince(post.updateDate)) < 0.001)
    }

    @Test func test_aBadUIDOrDateNamesTheField() {
        #expect(throws: PostsError.invalid(field: "post.uid", rule: "must be a UUID (got 'x')")) {
            try PostDTO(uid: "x", title: "t", content: "").toDomain()
        }
        let error = #expect(throws: PostsError.self) {
            try PostDTO(uid: UUID().uuidString, title: "t", content: "", createDate: "yesterday").toDomain()
        }
        guard case .invalid(let field, _)? = error else {
            Issue.record("not an invalid-field error: \(String(describing: error))")
            return
        }
        #expect(field == "post.createDate")
    }

    @Test func test_useCaseErrorsBecomeJSONRPCErrorsAndBackUnchanged() {
        let uid = UUID()
        let errors: [PostsError] = [.invalid(field: "title", rule: "must not be empty"), .notFound(uid: uid),
                                    .unavailable("down"), .busy("full"), .timeout("slow")]
        for error in errors { #expect(PostsError(JSONRPCError(error)) == error) }
        #expect(JSONRPCError(PostsError.invalid(field: "title", rule: "must not be empty")).data == ["field": "params.title"])
        #expect(JSONRPCError(PostsError.notFound(uid: uid)).code == .notFound)
    }
}
