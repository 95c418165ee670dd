import Foundation
import TestSupport
import Testing
import Wire
import ZeroMQ

/// Traces through the real processes, exported by swift-otel as OTLP/HTTP
/// to a receiver that decodes them with the opentelemetry-proto package.
@Suite("Tracing", .serialized, .timeLimit(.minutes(5)))
struct TracingTests {
    struct ExportedSpan: Decodable {
        let service: String, trace: String, span: String, parent: String, name: String
    }

    /// Starts the receiver; returns the environment that sends a process's
    /// spans there (batched every 100 ms), and where it writes them.
    private func startReceiver(_ harness: ProcessHarness) async throws -> (otel: [String: String], spans: String) {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/otlp-receiver.py").path
        let (spans, portFile) = ("\(harness.directory)/spans.jsonl", "\(harness.directory)/otlp.port")
        try harness.start("otlp", "/usr/bin/env", ["python3", script, spans, portFile])
        var port: String?
        _ = await eventually {
            port = try? String(contentsOfFile: portFile, encoding: .utf8); return port != nil
        }
        guard let port else { throw HarnessError("the OTLP receiver did not start:\n\(harness.log("otlp"))") }
        return (["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:\(port)", "OTEL_BSP_SCHEDULE_DELAY": "100"], spans)
    }

    private func spans(_ path: String) -> [ExportedSpan] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
            try? JSONDecoder().decode(ExportedSpan.self, from: Data($0.utf8))
        }
    }

    @Test func test_onePostsCreate_isOneTrace_acrossTheClientGatewayPostsServiceAndEverySearchReplica() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let (otel, path) = try await startReceiver(harness)
        let context = try Context()
        try await harness.startGateway(environment: otel, context: context)
        try await harness.startPostsService(environment: otel, context: context)
        for replica in ["search-1", "search-2"] {
            _ = try await harness.startSearchService(replica, environment: otel.merging(["OTEL_SERVICE_NAME": replica]) { $1 }, context: context)
        }
        let created = try await harness.run("posts", ["create", "--title", "Traced"], without: ["POSTS_LOG_LEVEL"], environment: otel)
        #expect(created.status == 0, "\(created)")
        var trace: [ExportedSpan] = []
        let whole = await eventually(within: .seconds(20)) {
            let all = spans(path)
            guard let root = all.first(where: { $0.service == "posts" && $0.name == "posts create" }) else { return false }
            trace = all.filter { $0.trace == root.trace }
            // Each process exports in batches, so wait for every span looked at below.
            return Set(trace.map { "\($0.service) \($0.name)" }).isSuperset(of: [
                "posts posts.save", "gateway gateway posts", "posts-service posts.save", "search-1 search.apply", "search-2 search.apply",
            ])
        }
        #expect(whole, "one trace id across every process: \(trace.map { "\($0.service) \($0.name)" })")
        // Parent links, hop by hop: client → gateway → posts-service → each replica's apply.
        let byID = Dictionary(trace.map { ($0.span, $0) }, uniquingKeysWith: { first, _ in first })
        let save = trace.first { $0.service == "posts-service" && $0.name == "posts.save" }
        #expect(save.flatMap { byID[$0.parent] }?.service == "gateway", "posts.save's parent is the gateway's span")
        #expect(save.flatMap { byID[$0.parent] }.flatMap { byID[$0.parent] }?.name == "posts.save", "the gateway's parent is the client's span")
        for replica in ["search-1", "search-2"] {
            let apply = trace.first { $0.service == replica && $0.name == "search.apply" }
            #expect(apply.flatMap { byID[$0.parent] }?.name == "posts.save", "\(replica) applied the change in the save's trace")
        }
        if let traceID = trace.first?.trace {
            #expect(harness.log("posts-service").contains("trace_id=\(traceID)"), "the log line written in the request's span names its trace")
        }
    }

    @Test func test_anHTTPRequestsTraceparent_isContinuedThroughTheEdgeGatewayAndPostsService() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let (otel, path) = try await startReceiver(harness)
        let context = try Context()
        try await harness.startGateway(environment: otel, context: context)
        try await harness.startPostsService(environment: otel, context: context)
        let edge = try await harness.startHTTPEdge(environment: otel)
        let (traceID, callerSpan) = ("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7")
        let created = try await edge.request(
            .POST, "/posts", headers: [("traceparent", "00-\(traceID)-\(callerSpan)-01")], json: #"{"title":"Traced over HTTP"}"#)
        #expect(created.status == 201)
        var trace: [ExportedSpan] = []
        let whole = await eventually(within: .seconds(20)) {
            trace = spans(path).filter { $0.trace == traceID }
            // The edge's server span ends after its client span, and may come a batch later.
            return Set(trace.map { "\($0.service) \($0.name)" }).isSuperset(of: [
                "posts-http POST /posts", "posts-http posts.save", "gateway gateway posts", "posts-service posts.save",
            ])
        }
        #expect(whole, "the caller's trace id across the edge, the gateway and posts-service: \(trace.map { "\($0.service) \($0.name)" })")
        let byID = Dictionary(trace.map { ($0.span, $0) }, uniquingKeysWith: { first, _ in first })
        let server = trace.first { $0.service == "posts-http" && $0.name == "POST /posts" }
        #expect(server?.parent == callerSpan, "the edge's span is the caller's child")
        let save = trace.first { $0.service == "posts-service" && $0.name == "posts.save" }
        // Up from posts.save: the gateway's span, the edge's client span, its server span.
        var ancestors: [ExportedSpan] = []
        var next = save.flatMap { byID[$0.parent] }
        while let span = next, ancestors.count < 10 {
            ancestors.append(span)
            next = byID[span.parent]
        }
        #expect(
            ancestors.map { "\($0.service) \($0.name)" } == ["gateway gateway posts", "posts-http posts.save", "posts-http POST /posts"],
            "posts.save descends from the edge's span, through the gateway's")
    }

    @Test func test_aRequestWithNoTraceContext_isTracedFromTheGatewayOn() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let (otel, path) = try await startReceiver(harness)
        let context = try Context()
        try await harness.startGateway(environment: otel, context: context)
        try await harness.startPostsService(sessions: 1, environment: otel, context: context)
        let client = try GatewayClient(endpoint: harness.gatewayEndpoint, context: context, timeout: .seconds(5), retries: 0)
        // A third-party client: plain JSON-RPC, no _meta at all, and no params.
        #expect(try await client.call(service: "posts", method: "posts.health").get()["status"] == "ok")
        var pair: (gateway: ExportedSpan, server: ExportedSpan)?
        _ = await eventually(within: .seconds(20)) {
            let all = spans(path)
            guard let server = all.first(where: { $0.name == "posts.health" }),
                let gateway = all.first(where: { $0.span == server.parent })
            else { return false }
            pair = (gateway, server)
            return true
        }
        #expect(pair?.gateway.service == "gateway" && pair?.gateway.parent == "", "the gateway's span begins the trace: \(spans(path))")
    }
}
