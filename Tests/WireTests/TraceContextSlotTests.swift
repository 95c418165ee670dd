import Foundation
import TestSupport
import TestTraits
import Testing
@testable import Wire

/// The gateway hands the worker its own span as the parent: a request's
/// `traceparent` is replaced in place, or inserted where there is none.
@Suite("Trace context in the bytes", .ownThread, .timeLimit(.minutes(5)))
struct TraceContextSlotTests {
    static let gatewaySpan = "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01"

    private func written(_ json: String) throws -> String {
        try Array(json.utf8).withUnsafeBytes { bytes in
            let slot = try #require(TraceContextSlot.find(in: bytes), "no slot in \(json)")
            return String(decoding: try #require(slot.writing(traceparent: Self.gatewaySpan, into: bytes)), as: UTF8.self)
        }
    }

    @Test func test_aCallersTraceparentIsReplacedInPlace_andItsStateKept() async throws {
        let caller = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
        let json = #"{"jsonrpc":"2.0","id":1,"method":"m","params":{"q":"x","_meta":{"traceparent":"\#(caller)","tracestate":"a=1"}}}"#
        let slot = try #require(Array(json.utf8).withUnsafeBytes { TraceContextSlot.find(in: $0) })
        #expect(slot.traceparent?.text == caller && slot.tracestate == "a=1")
        #expect(try written(json) == json.replacingOccurrences(of: caller, with: Self.gatewaySpan))
    }

    @Test(arguments: [
        (
            #"{"jsonrpc":"2.0","id":1,"method":"m","params":{"q":"x","_meta":{"timeoutMs":5}}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"m","params":{"q":"x","_meta":{"traceparent":"TP","timeoutMs":5}}}"#
        ),
        (
            #"{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{}}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"traceparent":"TP"}}}"#
        ),
        (
            #"{"jsonrpc":"2.0","id":1,"method":"m","params":{"q":"x"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"traceparent":"TP"},"q":"x"}}"#
        ),
        (
            #"{"jsonrpc":"2.0","id":1,"method":"m","params":{}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"traceparent":"TP"}}}"#
        ),
        (
            #"{"jsonrpc":"2.0","id":1,"method":"m"}"#,
            #"{"params":{"_meta":{"traceparent":"TP"}},"jsonrpc":"2.0","id":1,"method":"m"}"#
        ),
    ])
    func test_aRequestWithoutOne_getsOneInserted_andStaysAValidRequest(_ example: (String, String)) async throws {
        let result = try written(example.0)
        #expect(result == example.1.replacingOccurrences(of: "TP", with: Self.gatewaySpan))
        let request = try JSONRPC.decodeRequest(Data(result.utf8)).get()
        #expect(try request.meta().traceparent == Self.gatewaySpan)
    }

    @Test func test_positionalParamsAndNonJSON_carryNoContext() async {
        #expect(Array(#"{"jsonrpc":"2.0","id":1,"method":"m","params":[1,2]}"#.utf8).withUnsafeBytes { TraceContextSlot.find(in: $0) } == nil)
        #expect(Array("raw bytes".utf8).withUnsafeBytes { TraceContextSlot.find(in: $0) } == nil)
    }

    /// A request naming `params` or `_meta` twice gets the gateway's span
    /// where the service reads it: the last one.
    @Test(arguments: [
        #"{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"traceparent":"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}},"params":{"q":"x"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"m","params":{"q":"x"},"params":{"_meta":{"traceparent":"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"traceparent":"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"},"_meta":{"tracestate":"a=1"}}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"tracestate":"a=1"},"_meta":{"traceparent":"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}}}"#,
    ])
    func test_aNameGivenTwice_getsTheSpanWhereTheServiceReadsIt(_ json: String) async throws {
        let request = try JSONRPC.decodeRequest(Data(try written(json).utf8)).get()
        #expect(try request.meta().traceparent == Self.gatewaySpan)
        let slot = try #require(Array(json.utf8).withUnsafeBytes { TraceContextSlot.find(in: $0) })
        let read = try JSONRPC.decodeRequest(Data(json.utf8)).get().meta()
        #expect(
            slot.traceparent?.text == read.traceparent && slot.tracestate == read.tracestate,
            "the gateway's span's parent is the one the service would read")
    }
}
