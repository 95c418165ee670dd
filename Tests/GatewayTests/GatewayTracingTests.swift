@testable import Gateway
import TestTraits
import Testing
import ZeroMQ

/// The gateway's part of a trace. With no tracer set up (no
/// OTEL_EXPORTER_OTLP_ENDPOINT) a request must pass through byte for byte;
/// with one, TracingTests follows a trace through the real processes.
@Suite("Gateway tracing", .ownThread, .timeLimit(.minutes(1)))
struct GatewayTracingTests {
    let tracing = GatewayTracing()

    @Test func test_withoutATracer_aRequestIsHandedOnAsItCame_withOrWithoutATraceparent() async throws {
        let bodies = [
            #"{"jsonrpc":"2.0","id":1,"method":"posts.get","params":{"uid":"x"}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"posts.get","params":{"uid":"x","_meta":"#
                + #"{"traceparent":"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}}}"#,
        ]
        for text in bodies {
            let (span, body) = try #require(tracing.begin(service: "posts", body: [Frame(text)]))
            #expect(body == [Frame(text)], "unchanged: \(text)")
            span.finished("answered")
        }
    }

    @Test func test_aBodyOfSeveralFrames_orNotJSONRPC_isNotTraced_andSoNeverRewritten() async throws {
        #expect(tracing.begin(service: "echo", body: ["one", "two"]) == nil)
        #expect(tracing.begin(service: "echo", body: []) == nil)
        #expect(tracing.begin(service: "echo", body: [Frame("plain text, not JSON")]) == nil)
    }
}
