@testable import Client
import Domain
import Foundation
import Testing

@Suite("posts import reader")
struct ImportReaderTests {
    private func read(_ text: String) throws(PostsError) -> [Post] { try ImportReader.posts(from: Data(text.utf8)) }

    @Test func test_aJSONArrayOfPostsIsRead() throws {
        let posts = try read(#"  [{"title":"a","content":"x"},{"title":"b"}]"#)
        #expect(posts.map(\.title) == ["a", "b"])
        #expect(posts.map(\.content) == ["x", ""])
    }

    @Test func test_jsonLinesAreRead_skippingBlankLines() throws {
        let posts = try read("{\"title\":\"a\"}\n\n  \n{\"title\":\"b\"}\r\n")
        #expect(posts.map(\.title) == ["a", "b"])
    }

    @Test func test_theCommonSampleShapeUsesBodyAsContent() throws {
        let posts = try read(#"[{"userId":1,"id":7,"title":"sunt aut","body":"quia et"}]"#)
        #expect(posts.first?.title == "sunt aut" && posts.first?.content == "quia et")
    }

    @Test func test_givenUIDsAndDatesAreKept() throws {
        let uid = UUID()
        let posts = try read(#"{"uid":"\#(uid.uuidString)","title":"t","createDate":"2026-01-02T03:04:05Z"}"#)
        #expect(posts.first?.uid == uid)
        #expect(posts.first?.createDate == Date(timeIntervalSince1970: 1_767_323_045))
    }

    @Test func test_aUIDGivenTwiceIsOnePost_theLaterEntryWinning() throws {
        let uid = UUID().uuidString
        let posts = try read("{\"uid\":\"\(uid)\",\"title\":\"old\"}\n{\"title\":\"other\"}\n{\"uid\":\"\(uid)\",\"title\":\"new\"}")
        #expect(posts.map(\.title) == ["other", "new"])
    }

    @Test(arguments: [
        ("{\"title\":\"ok\"}\n{\"content\":\"x\"}", "line 2.title"),
        ("{\"title\":\"ok\"}\nnot json", "line 2"),
        (#"[{"title":"ok"}, 5]"#, "entry 2"),
        (#"[{"title":"   "}]"#, "entry 1.title"),
        (#"{"title":"t","uid":"nope"}"#, "line 1.uid"),
        (#"{"title":"t","createDate":"soon"}"#, "line 1.createDate"),
        ("[1, 2", "file"),
    ])
    func test_aBadEntryIsNamedByItsLineOrPlace(_ text: String, _ field: String) {
        let error = #expect(throws: PostsError.self) { try read(text) }
        guard case .invalid(let named, _)? = error else {
            Issue.record("expected an invalid-field error, got \(String(describing: error))")
            return
        }
        #expect(named == field)
    }
}
