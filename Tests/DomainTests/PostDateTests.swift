import Domain
import Foundation
import TestSupport
import TestTraits
import Testing

@Suite("Dates to the millisecond", .ownThread, .timeLimit(.minutes(5)))
struct PostDateTests {
    @Test(arguments: [
        "0001-01-01T00:00:00.000Z", "1969-12-31T23:59:59.999Z", "1970-01-01T00:00:00.000Z", "2000-02-29T12:34:56.789Z",
        "2026-11-23T10:20:30.001Z", "9999-12-31T23:59:59.999Z",
    ])
    func test_everyDateInTheRangeFormatsBackToExactlyWhatWasParsed(_ text: String) async throws {
        #expect(PostDate.format(try PostDate.parse(text, field: "d")) == text)
    }

    @Test func test_anyMillisecondFormatsAsFoundationsISO8601WithFractionalSeconds() async {
        let foundation = ISO8601DateFormatter()
        foundation.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        foundation.timeZone = TimeZone(identifier: "UTC")
        for _ in 0..<500 {
            let date = PostDate.date(milliseconds: Int64.random(in: -2_208_988_800_000...4_102_444_800_000))
            #expect(PostDate.format(date) == foundation.string(from: date))
        }
    }

    @Test func test_theRangeEndsAreTheDocumentedMilliseconds() async throws {
        #expect(PostDate.milliseconds(try PostDate.parse(PostDate.latestText, field: "d")) == PostDate.latest)
        #expect(PostDate.milliseconds(try PostDate.parse(PostDate.earliestText, field: "d")) == PostDate.earliest)
    }

    @Test func test_offsetsFractionsAndSecondsWithoutFractionAreRead() async throws {
        #expect(PostDate.format(try PostDate.parse("2026-01-02T03:04:05+02:00", field: "d")) == "2026-01-02T01:04:05.000Z")
        #expect(PostDate.format(try PostDate.parse("2026-01-02T03:04:05.1Z", field: "d")) == "2026-01-02T03:04:05.100Z")
        #expect(PostDate.format(try PostDate.parse("2026-01-02T03:04:05.12349Z", field: "d")) == "2026-01-02T03:04:05.123Z")
        #expect(PostDate.format(try PostDate.parse("2026-01-02T03:04:05.1235Z", field: "d")) == "2026-01-02T03:04:05.124Z")
    }

    @Test(arguments: [
        "soon", "2026-02-30T00:00:00Z", "2026-13-01T00:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01", "2026-01-01T00:00:00",
        "2026-01-01T00:00:00Zjunk", "0000-12-31T00:00:00Z",
    ])
    func test_whatIsNotADateIsRefusedNamingTheField(_ text: String) async {
        let error = #expect(throws: PostsError.self) { try PostDate.parse(text, field: "post.createDate") }
        guard case .invalid(let invalid)? = error else { Issue.record("expected invalid, got \(String(describing: error))"); return }
        #expect(invalid.field == "post.createDate")
    }

    @Test func test_aDateAfterTheRangeIsRefusedAsOutOfRange() async {
        #expect(throws: PostsError.invalid("d", .dateOutOfRange("9999-12-31T23:59:59.9995Z"))) {
            try PostDate.parse("9999-12-31T23:59:59.9995Z", field: "d")
        }
    }
}
