import Domain
import Foundation
import TestSupport
import TestTraits
import Testing

@Suite("Post rules", .ownThread, .timeLimit(.minutes(5)))
struct PostRulesTests {
    @Test func test_aTitleIsTrimmedBeforeItIsChecked() async throws {
        #expect(try PostRules.validated(Post(title: "  Hello \n", content: "")).title == "Hello")
    }

    @Test func test_trimmingTakesEveryKindOfSpaceAndLineBreak_butNotInvisibleLetters() async throws {
        let spaced = "\u{00A0}\u{2003}\u{3000}\t\u{0B}Hello world\u{0085}\u{2028}\u{2029}\r\n"
        #expect(try PostRules.validated(Post(title: spaced, content: "")).title == "Hello world")
        // A zero-width space is a format character, not a space: it stays, as Foundation's trimming left it.
        #expect(try PostRules.validated(Post(title: "\u{200B}Hello ", content: "")).title == "\u{200B}Hello")
        #expect(throws: PostsError.invalid("title", .empty)) { try PostRules.validated(Post(title: "\u{2000}\u{205F}", content: "")) }
    }

    @Test(arguments: ["", "   ", "\n\t"])
    func test_whenTheTitleIsEmpty_thenTitleMustNotBeEmpty(_ title: String) async {
        #expect(throws: PostsError.invalid("title", .empty)) { try PostRules.validated(Post(title: title, content: "x")) }
    }

    @Test func test_aTitleMayHave200CharactersButNot201() async throws {
        _ = try PostRules.validated(Post(title: String(repeating: "é", count: 200), content: ""))
        let error = #expect(throws: PostsError.invalid("title", .tooLong(max: 200, actual: 201, unit: .characters))) {
            try PostRules.validated(Post(title: String(repeating: "a", count: 201), content: ""))
        }
        #expect(error?.description == "title must be at most 200 characters (it has 201)")
    }

    @Test func test_aTitleOfOneCharacterWithThousandsOfCombiningMarks_isRefusedByItsBytes() async {
        let title = "a" + String(repeating: "\u{0301}", count: 1_500)
        #expect(title.count == 1)
        #expect(throws: PostsError.invalid("title", .tooLong(max: 2_000, actual: 3_001, unit: .bytes))) {
            try PostRules.validated(Post(title: title, content: ""))
        }
    }

    @Test func test_contentIsLimitedTo100000BytesOfUTF8() async throws {
        _ = try PostRules.validated(Post(title: "t", content: String(repeating: "a", count: 100_000)))
        // 50,001 two-byte characters are 100,002 bytes.
        #expect(throws: PostsError.invalid("content", .tooLong(max: 100_000, actual: 100_002, unit: .bytes))) {
            try PostRules.validated(Post(title: "t", content: String(repeating: "é", count: 50_001)))
        }
    }

    @Test func test_aNULCharacterIsRefusedNamingTheField_soNothingIsStoredCut() async {
        let error = #expect(throws: PostsError.invalid("title", .forbiddenCharacter(0))) {
            try PostRules.validated(Post(title: "before\u{0}after", content: ""))
        }
        #expect(error?.description == "title must not contain the character U+0000")
        #expect(throws: PostsError.invalid("posts[2].content", .forbiddenCharacter(0))) {
            try PostRules.validated(Post(title: "t", content: "\u{0}"), field: "posts[2]")
        }
    }

    @Test func test_datesAreKeptToTheMillisecond_andOutsideTheRangeRefused() async throws {
        let post = Post(title: "t", content: "", createDate: Date(timeIntervalSince1970: 1.234_567))
        #expect(PostDate.milliseconds(try PostRules.validated(post).createDate) == 1_235)
        let early = Post(title: "t", content: "", createDate: Date(timeIntervalSince1970: -62_135_596_800.001))
        #expect(throws: PostsError.invalid("createDate", .dateOutOfRange("0000-12-31T23:59:59.999Z"))) { try PostRules.validated(early) }
    }

    @Test func test_pageSizesOutsideTheRangeAreRefused_andNoneMeansTheDefault() async throws {
        #expect(try PostRules.validatedLimit(nil) == PostRules.defaultPageSize)
        #expect(try PostRules.validatedLimit(500) == 500)
        #expect(throws: PostsError.invalid("limit", .outOfRange(min: 1, max: 500, actual: "0"))) { try PostRules.validatedLimit(0) }
        #expect(throws: PostsError.self) { try PostRules.validatedLimit(501) }
    }

    @Test func test_aUIDMustBeAUUID_andTheErrorQuotesWhatWasGiven() async throws {
        let uid = UUID()
        #expect(try PostRules.uid(uid.uuidString) == uid)
        #expect(try PostRules.uid(uid.uuidString.lowercased()) == uid)
        let error = #expect(throws: PostsError.invalid("uid", .notUUID("42"))) { try PostRules.uid("42") }
        #expect(error?.description.contains("'42'") == true)
    }

    @Test func test_anUpdateDateDefaultsToTheCreateDate() async {
        let date = Date(timeIntervalSince1970: 10)
        #expect(Post(title: "t", content: "", createDate: date).updateDate == date)
    }

    /// A page holds what fits in `maxPageBytes` of text, the first post
    /// always, however large: read one at a time (`PageBudget`, as the
    /// change feed reads) or cut from rows already read (`pagePrefix`),
    /// it ends at the same post.
    @Test func test_aPageEndsAtTheSamePost_whetherItsRowsAreReadOneAtATimeOrCutFromAList() async {
        let bound = PostRules.maxPageBytes
        // Each post's bytes of text, and how many of them the page holds.
        let cases: [(sizes: [Int], page: Int)] = [
            ([bound + 1, 1], 1),  // the first alone, over the bound
            ([bound, 0, 1], 2),  // exactly full: an empty text still fits, one byte does not
            ([bound / 2, bound / 2, 1], 2),
            ([10, 20, bound - 30, 1, 1], 3),
            (Array(repeating: bound / 7, count: 10), 7),
            ([], 0),
        ]
        for (sizes, page) in cases {
            let rows = sizes.map { (title: "", content: String(repeating: "a", count: $0)) }
            let cut = PostRules.pagePrefix(rows[...]) { $0 }.count
            var budget = PostRules.PageBudget()
            let read = rows.prefix { budget.admits(textBytes: $0.content.utf8.count) }.count
            #expect(cut == page && read == page, "\(sizes): cut \(cut), read \(read), not \(page)")
        }
    }
}
