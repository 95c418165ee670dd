import Domain
import Foundation
import Testing

@Suite("Post rules")
struct PostRulesTests {
    @Test func test_aTitleIsTrimmedBeforeItIsChecked() throws {
        #expect(try PostRules.validated(Post(title: "  Hello \n", content: "")).title == "Hello")
    }

    @Test(arguments: ["", "   ", "\n\t"])
    func test_whenTheTitleIsEmpty_thenTitleMustNotBeEmpty(_ title: String) {
        #expect(throws: PostsError.invalid(field: "title", rule: "must not be empty")) {
            try PostRules.validated(Post(title: title, content: "x"))
        }
    }

    @Test func test_aTitleMayHave200CharactersButNot201() throws {
        _ = try PostRules.validated(Post(title: String(repeating: "é", count: 200), content: ""))
        #expect(throws: PostsError.invalid(field: "title", rule: "must be at most 200 characters (it has 201)")) {
            try PostRules.validated(Post(title: String(repeating: "a", count: 201), content: ""))
        }
    }

    @Test func test_aTitleOfOneCharacterWithThousandsOfCombiningMarks_isRefusedByItsBytes() {
        let title = "a" + String(repeating: "\u{0301}", count: 1_500)
        #expect(title.count == 1)
        #expect(throws: PostsError.invalid(field: "title", rule: "must be at most 2000 bytes of UTF-8 (it has 3001)")) {
            try PostRules.validated(Post(title: title, content: ""))
        }
    }

    @Test func test_contentIsLimitedTo100000BytesOfUTF8() throws {
        _ = try PostRules.validated(Post(title: "t", content: String(repeating: "a", count: 100_000)))
        // 50,001 two-byte characters are 100,002 bytes.
        #expect(throws: PostsError.invalid(field: "content", rule: "must be at most 100000 bytes of UTF-8 (it has 100002)")) {
            try PostRules.validated(Post(title: "t", content: String(repeating: "é", count: 50_001)))
        }
    }

    @Test func test_pageSizesOutsideTheRangeAreRefused_andNoneMeansTheDefault() throws {
        #expect(try PostRules.validatedLimit(nil) == PostRules.defaultPageSize)
        #expect(try PostRules.validatedLimit(500) == 500)
        #expect(throws: PostsError.self) { try PostRules.validatedLimit(0) }
        #expect(throws: PostsError.self) { try PostRules.validatedLimit(501) }
    }

    @Test func test_aUIDMustBeAUUID_andTheErrorQuotesWhatWasGiven() throws {
        let uid = UUID()
        #expect(try PostRules.uid(uid.uuidString) == uid)
        #expect(try PostRules.uid(uid.uuidString.lowercased()) == uid)
        let error = #expect(throws: PostsError.self) { try PostRules.uid("42") }
        #expect(error?.description.contains("'42'") == true)
    }

    @Test func test_anUpdateDateDefaultsToTheCreateDate() {
        let date = Date(timeIntervalSince1970: 10)
        #expect(Post(title: "t", content: "", createDate: date).updateDate == date)
    }
}
