import Foundation
import Testing

/// The failover checker's judge, on histories written by hand: it must
/// catch each kind of violation it claims to, and pass a history that
/// breaks nothing.
@Suite("Failover checker's history analysis", .timeLimit(.minutes(5)))
struct FailoverHistoryTests {
    static let uid = "7F3C2A4E-0B6D-4C1A-9E55-3D2B1A0C9F11"

    /// A history file of `lines` (JSON objects without braces), read back.
    static func history(_ lines: [String]) throws -> FailoverHistory {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("history-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try lines.map { "{\"client\":0,\"invoke\":1,\"complete\":2,\"uid\":\"\(uid)\",\($0)}" }.joined(separator: "\n")
            .write(toFile: path, atomically: true, encoding: .utf8)
        return try FailoverHistory(path: path)
    }

    static let created = #""op":"create","type":"ok","title":"t0","to":100"#
    static func edit(_ type: String, from: Int, to: Int?, title: String) -> String {
        #""op":"edit","type":"\#(type)","title":"\#(title)","from":\#(from)"# + (to.map { #","to":\#($0)"# } ?? "")
    }

    @Test func test_aChainOfEditsEndingInWhatIsStored_breaksNothing() async throws {
        let history = try Self.history([
            Self.created, Self.edit("ok", from: 100, to: 200, title: "t1"), Self.edit("fail", from: 100, to: nil, title: "x"),
        ])
        #expect(history.violations(stored: [Self.uid: .init(title: "t1", updateMilliseconds: 200)]).isEmpty)
    }

    @Test func test_twoEditsAppliedFromOneVersion_areCaught() async throws {
        let history = try Self.history([
            Self.created, Self.edit("ok", from: 100, to: 200, title: "t1"), Self.edit("ok", from: 100, to: 300, title: "t2"),
        ])
        #expect(history.violations(stored: [Self.uid: .init(title: "t2", updateMilliseconds: 300)]).contains { $0.contains("two edits") })
    }

    @Test func test_anAcknowledgedEditLost_orAnAcknowledgedPostGone_isCaught() async throws {
        let history = try Self.history([Self.created, Self.edit("ok", from: 100, to: 200, title: "t1")])
        #expect(history.violations(stored: [Self.uid: .init(title: "t0", updateMilliseconds: 100)]).contains { $0.contains("last acknowledged") })
        #expect(history.violations(stored: [:]).contains { $0.contains("gone") })
    }

    @Test func test_anEditOfUnknownOutcome_mayExplainTheFinalState_butNothingElseMay() async throws {
        let history = try Self.history([Self.created, Self.edit("info", from: 100, to: nil, title: "t1")])
        #expect(history.violations(stored: [Self.uid: .init(title: "t1", updateMilliseconds: 250)]).isEmpty)
        #expect(!history.violations(stored: [Self.uid: .init(title: "t9", updateMilliseconds: 250)]).isEmpty)
    }

    @Test func test_aDeleteThatSaysNoSuchPost_ofAPostOnlyItDeleted_isCaught_asIsADeletedPostStillThere() async throws {
        let saidAbsent = try Self.history([Self.created, #""op":"delete","type":"ok","deleted":false"#])
        #expect(saidAbsent.violations(stored: [:]).contains { $0.contains("no such post") })
        let deleted = try Self.history([Self.created, #""op":"delete","type":"ok","deleted":true"#])
        #expect(deleted.violations(stored: [:]).isEmpty)
        #expect(deleted.violations(stored: [Self.uid: .init(title: "t0", updateMilliseconds: 100)]).contains { $0.contains("still there") })
    }

    @Test func test_failoverTimesRunFromEachFaultToEachClientsNextSuccess() async throws {
        let history = try Self.history([Self.created])
        #expect(history.failoverTimes(after: [1.5]) == [0.5])
        #expect(FailoverHistory.percentiles([1, 2, 3, 100]) == (2, 100, 100))
    }
}
