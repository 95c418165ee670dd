import Application
import Domain
import Foundation
import TestSupport
import Testing

@Suite("Problems as screens show them", .timeLimit(.minutes(5)))
struct ProblemTests {
    @Test func test_eachKindOfFailureIsItsOwnProblem_withItsOwnWords() async {
        let uid = UUID()
        let problems = [
            Problem(.conflict(uid: uid)), Problem(.unavailable(.noWorker(service: "posts"))), Problem(.notFound(uid: uid)),
            Problem(.invalid("title", .empty)), Problem(.timeout(seconds: 10)), Problem(.failed("disk full")),
        ]
        #expect(
            problems == [
                .conflict, .outage(.noWorker(service: "posts")), .notFound, .invalid(InvalidField("title", .empty)),
                .slow("no answer within 10 s; the request may still have been carried out"), .other("disk full"),
            ])
        #expect(Set(problems.map(\.message)).count == problems.count, "no two read alike")
        #expect(Problem(.invalid("title", .empty)).message == "title must not be empty")
    }
}

@Suite("Search totals as screens show them", .timeLimit(.minutes(5)))
struct SearchTotalTests {
    @Test func test_anExactTotalReadsAsItsNumber_andABoundedOneAsAtLeast() async {
        #expect(SearchTotal(count: 12, exact: true).description == "12")
        #expect(SearchTotal(count: 1_000, exact: false).description == "1000+")
    }
}
