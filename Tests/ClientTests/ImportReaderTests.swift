@testable import Client
import Domain
import Foundation
import TestSupport
import TestTraits
import Testing

/// The file formats `posts import` reads; what an entry means is Domain's (ImportRulesTests).
@Suite("posts import reader", .ownThread, .timeLimit(.minutes(5)))
struct ImportReaderTests {
    private func read(_ text: String) throws(PostsError) -> [ImportEntry] { try ImportReader.entries(from: Data(text.utf8)) }

    @Test func test_aJSONArrayOfPostsIsRead_withEntryLabels() async throws {
        let entries = try read(#"  [{"title":"a","content":"x"},{"title":"b","userId":1,"id":2,"body":"y"}]"#)
        #expect(
            entries == [
                ImportEntry(label: "entry 1", title: "a", content: "x"),
                ImportEntry(label: "entry 2", userId: 1, id: 2, title: "b", body: "y"),
            ])
    }

    @Test func test_jsonLinesAreRead_skippingBlankLines_withLineNumbers() async throws {
        let entries = try read("{\"title\":\"a\"}\n\n  \n{\"title\":\"b\"}\r\n")
        #expect(entries.map(\.label) == ["line 1", "line 4"])
        #expect(entries.map(\.title) == ["a", "b"])
    }

    @Test(arguments: [
        ("{\"title\":\"ok\"}\nnot json", "line 2"),
        (#"[{"title":"ok"}, 5]"#, "entry 2"),
        ("[1, 2", "file"),
    ])
    func test_whatIsNotAnEntryIsNamedByItsLineOrPlace(_ text: String, _ field: String) async {
        let error = #expect(throws: PostsError.self) { try read(text) }
        guard case .invalid(let invalid)? = error else { Issue.record("expected an invalid-field error, got \(String(describing: error))"); return }
        #expect(invalid.field == field)
    }
}
