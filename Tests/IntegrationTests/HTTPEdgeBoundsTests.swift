import Foundation
import NIOHTTP1
import Testing
import Wire
import ZeroMQ

/// The edge's bounds, met as a client meets them (raw sockets, so the test
/// chooses how many connections and what bytes), and its metrics.
@Suite("posts-http bounds and metrics", .serialized, .timeLimit(.minutes(5)))
struct HTTPEdgeBoundsTests {
    /// Speaks HTTP/1.1 over plain sockets to 127.0.0.1:PORT: `hold` idle
    /// connections are opened (each first asked GET /healthz, so the edge
    /// has counted it), then one more sends `request`; prints the status
    /// line and the body of each answer, or "closed".
    private static let client = """
        import socket, sys, time
        port, hold, request = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3].encode().decode('unicode_escape').encode('latin-1')
        def answer(s):
            data = b''
            s.settimeout(15)
            while True:
                try:
                    chunk = s.recv(65536)
                except socket.timeout:
                    return 'timed out'
                if not chunk:
                    break
                data += chunk
                head, _, body = data.partition(b'\\r\\n\\r\\n')
                length = [int(l.split(b':')[1]) for l in head.split(b'\\r\\n') if l.lower().startswith(b'content-length:')]
                if length and len(body) >= length[0]:
                    break
            if not data:
                return 'closed'
            head, _, body = data.partition(b'\\r\\n\\r\\n')
            lines = head.decode('latin-1').split('\\r\\n')
            kind = [l for l in lines if l.lower().startswith('content-type:')]
            return lines[0] + ' | ' + (kind[0] if kind else '') + ' | ' + body.decode('utf-8', 'replace')
        held = []
        for _ in range(hold):
            s = socket.create_connection(('127.0.0.1', port))
            s.sendall(b'GET /healthz HTTP/1.1\\r\\nHost: edge\\r\\n\\r\\n')
            print('held', answer(s))
            held.append(s)
        s = socket.create_connection(('127.0.0.1', port))
        if request != b'-':
            s.sendall(request)
        print('last', answer(s))
        """

    private static func speak(_ harness: ProcessHarness, _ edge: HTTPEdge, hold: Int, _ request: String) async throws -> [String] {
        let port = String(edge.base.split(separator: ":").last ?? "")
        let run = try await harness.run("/usr/bin/env", ["python3", "-c", client, port, String(hold), request], limit: .seconds(60))
        #expect(run.status == 0, "\(run.stderr)")
        return run.stdout.split(separator: "\n").map(String.init)
    }

    @Test func test_pastItsConnections_theNextIsAnswered503_andTheFirstAreStillServed() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        try await harness.startPostsSystem(context: try Context())
        let edge = try await harness.startHTTPEdge("posts-http", ["--max-connections", "3", "--max-streams", "1"])
        let lines = try await Self.speak(harness, edge, hold: 3, #"GET /posts HTTP/1.1\r\nHost: edge\r\n\r\n"#)
        #expect(lines.filter { $0.hasPrefix("held HTTP/1.1 200") }.count == 3, "\(lines)")
        let last = lines.last ?? ""
        #expect(last.hasPrefix("last HTTP/1.1 503") && last.contains("application/problem+json"), "\(lines)")
        #expect(last.contains("most connections open (3)"), "\(last)")
        // Once those are closed, a connection is served again.
        #expect(try await edge.request(.GET, "/posts/count").status == 200)
    }

    @Test func test_aHeaderOverItsBound_is431_andGarbageIs400_bothProblems() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        try await harness.startPostsSystem(context: try Context())
        let edge = try await harness.startHTTPEdge()
        let large = String(repeating: "a", count: 20_000)
        let big = try await Self.speak(harness, edge, hold: 0, #"GET /posts HTTP/1.1\r\nHost: edge\r\nX-Large: \#(large)\r\n\r\n"#)
        #expect(big.last?.hasPrefix("last HTTP/1.1 431") == true, "\(big)")
        #expect(big.last?.contains("application/problem+json") == true && big.last?.contains("headers-too-large") == true, "\(big)")
        let many = (0..<150).map { #"X-H\#($0): v\r\n"# }.joined()
        let fields = try await Self.speak(harness, edge, hold: 0, #"GET /posts HTTP/1.1\r\nHost: edge\r\n\#(many)\r\n"#)
        #expect(fields.last?.hasPrefix("last HTTP/1.1 431") == true, "\(fields)")
        let garbage = try await Self.speak(harness, edge, hold: 0, #"HELLO THERE\r\n\r\n"#)
        #expect(garbage.last?.hasPrefix("last HTTP/1.1 400") == true && garbage.last?.contains("application/problem+json") == true, "\(garbage)")
        // A header just under the bound is served.
        let fine = try await edge.request(.GET, "/posts/count", headers: [("X-Fine", String(repeating: "b", count: 8_000))])
        #expect(fine.status == 200)
    }

    @Test func test_aConnectionIdlePastItsTimeout_isClosed() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        try await harness.startPostsSystem(context: try Context())
        let edge = try await harness.startHTTPEdge("posts-http", ["--idle-timeout", "1s"])
        // Nothing sent: the edge closes it well before the client's 15 s wait.
        let silent = try await Self.speak(harness, edge, hold: 0, "-")
        #expect(silent.last == "last closed", "\(silent)")
        // Half a request, then silence: closed too.
        let half = try await Self.speak(harness, edge, hold: 0, #"GET /posts HTTP/1.1\r\nHost: ed"#)
        #expect(half.last == "last closed", "\(half)")
    }

    @Test func test_badBoundSettings_stopTheEdgeSayingWhich() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let cases: [([String], String)] = [
            (["--max-connections", "10", "--max-streams", "10"], "must be below --max-connections"),
            (["--max-connections", "0"], "must be at least 1"),
            (["--idle-timeout", "soon"], "is not a duration"),
            (["--tls-cert", "/nonexistent.pem"], "--tls-cert and --tls-key go together"),
            (["--tls-cert", "/nonexistent.pem", "--tls-key", "/nonexistent.key"], "--tls-cert /nonexistent.pem"),
            (["--tokens", "/nonexistent/tokens"], "cannot read the token list /nonexistent/tokens"),
        ]
        for (index, (arguments, message)) in cases.enumerated() {
            let name = "bad\(index)"
            let process = try harness.start(name, "posts-http", ["--listen", "127.0.0.1:0", "--gateway", harness.gatewayEndpoint] + arguments)
            let status = try #require(await process.exit(within: .seconds(20)), "\(arguments) did not stop the edge")
            #expect(status != 0 && harness.log(name).contains(message), "\(arguments): \(harness.log(name))")
        }
    }

    @Test func test_metrics_countRequestsByRouteTemplateAndStatus_andStreams() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        try await harness.startPostsSystem(context: try Context())
        let edge = try await harness.startHTTPEdge("posts-http", ["--metrics", "127.0.0.1:0"])
        let metrics = try #require(await harness.metricsURL(of: "posts-http"), "\(harness.log("posts-http"))")
        let created = try await edge.request(.POST, "/posts", json: #"{"title":"Counted"}"#)
        let uid = try #require(created.json?["uid"]?.stringValue)
        _ = try await edge.request(.GET, "/posts/\(uid)")
        _ = try await edge.request(.GET, "/posts/\(UUID().uuidString)")
        _ = try await edge.request(.GET, "/posts/\(UUID().uuidString)")
        _ = try await edge.request(.GET, "/nowhere/at/all")
        #expect(try await edge.request(.RAW(value: "PROPFIND"), "/posts").status == 405)
        let stream = try await edge.events("/posts/changes")
        #expect(stream.status == 200)

        let page = try await harness.fetch(metrics).stdout
        func value(_ name: String, _ labels: [String: String]) -> Double? {
            page.split(separator: "\n").first { line in
                line.hasPrefix(name + "{") && labels.allSatisfy { line.contains(#"\#($0.key)="\#($0.value)""#) }
            }.flatMap { Double($0.split(separator: " ").last ?? "") }
        }
        #expect(value("http_server_requests_total", ["method": "POST", "route": "/posts", "status": "201"]) == 1, "\(page)")
        #expect(value("http_server_requests_total", ["method": "GET", "route": "/posts/{uid}", "status": "200"]) == 1)
        #expect(value("http_server_requests_total", ["method": "GET", "route": "/posts/{uid}", "status": "404"]) == 2)
        #expect(value("http_server_requests_total", ["method": "GET", "route": "unmatched", "status": "404"]) == 1)
        #expect(value("http_server_requests_total", ["method": "_OTHER", "route": "/posts", "status": "405"]) == 1)
        #expect(value("http_server_request_duration_seconds_count", ["method": "GET", "route": "/posts/{uid}"]) == 3)
        #expect(sample("http_server_change_streams", in: page) == 1, "\(page)")
        #expect((sample("http_server_connections", in: page) ?? 0) >= 1)
        #expect(!page.contains(uid), "a uid is never a label")
        if let promtool = try? await harness.promtoolCheck(metrics) {
            #expect(promtool.status == 0, "promtool: \(promtool.stdout)\(promtool.stderr)")
        }
        withExtendedLifetime(stream) {}
    }
}
