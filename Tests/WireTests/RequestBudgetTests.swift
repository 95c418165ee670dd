import Foundation
import TestSupport
import TestTraits
import Testing
@testable import Wire

/// The gateway reads a request's budget from its bytes, and only from
/// `params._meta.timeoutMs`.
@Suite("Request budget in the bytes", .ownThread, .timeLimit(.minutes(5)))
struct RequestBudgetTests {
    private func find(_ json: String) -> RequestBudget? {
        Array(json.utf8).withUnsafeBytes { RequestBudget.find(in: $0) }
    }

    @Test func test_theBudgetIsFoundUnderParamsMeta_andRewrittenInPlace() async throws {
        let json = #"{"jsonrpc":"2.0","id":1,"method":"m","params":{"q":"x","_meta":{"traceparent":"t","timeoutMs": 2500 }}}"#
        let budget = try #require(find(json))
        #expect(budget.milliseconds == 2500)
        let rewritten = Array(json.utf8).withUnsafeBytes { budget.rewriting($0, to: 7) }
        #expect(String(decoding: rewritten, as: UTF8.self) == json.replacingOccurrences(of: "2500", with: "7"))
    }

    @Test func test_aTimeoutMsAnywhereElse_isNotABudget() async {
        #expect(find(#"{"timeoutMs":5,"params":{}}"#) == nil)
        #expect(find(#"{"params":{"timeoutMs":5}}"#) == nil)
        #expect(find(#"{"params":{"post":{"_meta":{"timeoutMs":5}}}}"#) == nil)
        #expect(find(#"{"params":{"content":"\"_meta\":{\"timeoutMs\":5}"}}"#) == nil)
        #expect(find(#"{"params":{"_meta":{"timeoutMs":"5"}}}"#) == nil)
        #expect(find(#"{"params":{"_meta":{"timeoutMs":1.5}}}"#) == nil)
        #expect(find("not json") == nil)
        #expect(find("") == nil)
        #expect(find(#"{"params":{"_meta":{"timeoutMs":-3}}}"#)?.milliseconds == -3)
    }

    /// A name given twice is read as the service reads it (the last one
    /// stands), so a request cannot show the gateway one budget and the
    /// service another.
    @Test(
        arguments: [
            (#""params":{"_meta":{"timeoutMs":9000}},"params":{"_meta":{"timeoutMs":5}}"#, 5),
            (#""params":{"_meta":{"timeoutMs":9000}},"params":{"q":1}"#, nil),
            (#""params":{"_meta":{"timeoutMs":9000},"_meta":{"traceparent":"t"}}"#, nil),
            (#""params":{"_meta":{"timeoutMs":9000,"timeoutMs":5}}"#, 5),
            (#""params":{"_meta":{"timeoutMs":9000}},"params":{"_meta":{}},"params":{"_meta":{"timeoutMs":7}}"#, 7),
        ] as [(String, Int?)])
    func test_aNameGivenTwice_isReadAsTheServiceReadsIt(_ example: (members: String, last: Int?)) async throws {
        let json = #"{"jsonrpc":"2.0","id":1,"method":"m","# + example.members + "}"
        #expect(find(json)?.milliseconds == example.last)
        #expect(try JSONRPC.decodeRequest(Data(json.utf8)).get().meta().timeoutMs == example.last)
        // The digits rewritten are the ones the service reads.
        if let budget = find(json) {
            let rewritten = Array(json.utf8).withUnsafeBytes { budget.rewriting($0, to: 42) }
            #expect(try JSONRPC.decodeRequest(Data(rewritten)).get().meta().timeoutMs == 42)
        }
    }
}
