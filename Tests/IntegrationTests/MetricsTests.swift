import Foundation
import TestSupport
import Testing
import Wire
import ZeroMQ

/// Metrics through the real processes: each serves Prometheus' text format
/// when asked (`--metrics`), `promtool` finds nothing wrong with it, and a
/// real Prometheus server scrapes a running stack.
@Suite("Metrics", .serialized, .timeLimit(.minutes(5)))
struct MetricsTests {
    private func startStack(_ harness: ProcessHarness, context: Context) async throws -> [String: String] {
        let metrics = ["--metrics", "127.0.0.1:0"]
        try await harness.startGateway(metrics, context: context)
        try await harness.startPostsService("posts-service", sessions: 2, metrics, context: context)
        _ = try await harness.startSearchService("search-1", metrics, context: context)
        var urls: [String: String] = [:]
        for name in ["gateway", "posts-service", "search-1"] {
            guard let url = await harness.metricsURL(of: name) else { throw HarnessError("\(name) logged no metrics address:\n\(harness.log(name))") }
            urls[name] = url
        }
        return urls
    }

    @Test func test_everyProcessServesMetricsThatPromtoolAccepts_withTheFiguresOfWhatHappened() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        let urls = try await startStack(harness, context: context)
        for n in 1...3 { #expect(try await harness.posts(["create", "--title", "Zebra \(n)"]).status == 0) }
        #expect(try await harness.posts(["show", UUID().uuidString]).status == 3, "a post that is not there")
        #expect(await eventually { (try? await harness.posts(["search", "zebra"]).stdout.contains("Zebra 3")) == true })
        try await Task.sleep(for: .seconds(2.5))  // the gauges are set every 1-2 s
        for (name, url) in urls {
            let check = try await harness.promtoolCheck(url)
            #expect(check.status == 0, "promtool on \(name): \(check.stdout) \(check.stderr)")
            // A metric whose name is not in MetricCatalog gets its own name as help: each name is written once there.
            for line in try await harness.fetch(url).stdout.split(separator: "\n") where line.hasPrefix("# HELP ") {
                let parts = line.dropFirst(7).split(separator: " ", maxSplits: 1)
                #expect(parts.count == 2 && parts[0] != parts[1], "\(name): \(line) is not in MetricCatalog")
            }
        }
        let gateway = try await harness.fetch(urls["gateway"]!).stdout
        #expect((sample(#"gateway_requests_total{rpc_service="posts",outcome="answered"}"#, in: gateway) ?? 0) >= 4, "\(gateway)")
        #expect(sample(#"gateway_worker_sessions{rpc_service="posts"}"#, in: gateway) == 2)
        #expect(sample(#"gateway_workers{rpc_service="posts"}"#, in: gateway) == 1)
        #expect((sample(#"gateway_request_duration_seconds_count{rpc_service="posts"}"#, in: gateway) ?? 0) >= 4)
        let posts = try await harness.fetch(urls["posts-service"]!).stdout
        #expect(
            sample(#"rpc_server_requests_total{rpc_system="jsonrpc",rpc_service="posts",rpc_method="posts.save",outcome="ok"}"#, in: posts) == 3,
            "\(posts)")
        #expect(
            sample(#"rpc_server_requests_total{rpc_system="jsonrpc",rpc_service="posts",rpc_method="posts.get",outcome="not_found"}"#, in: posts) == 1
        )
        #expect((sample(#"posts_store_duration_seconds_count{operation="save"}"#, in: posts) ?? 0) >= 3)
        let search = try await harness.fetch(urls["search-1"]!).stdout
        #expect(sample("search_documents", in: search) == 3, "\(search)")
        #expect(sample("search_applied_sequence", in: search) == 3)
        #expect(sample("search_index_delay_seconds_count", in: search) == 3)
        #expect(sample("search_lag_changes", in: search) == 0)
    }

    @Test func test_aRealPrometheusScrapesTheStack_andFindsTheRequestRate() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        let urls = try await startStack(harness, context: context)
        let targets = urls.values.map { "'" + $0.replacingOccurrences(of: "http://", with: "").replacingOccurrences(of: "/metrics", with: "") + "'" }
        let config = """
            global:
              scrape_interval: 1s
            scrape_configs:
              - job_name: posts
                static_configs:
                  - targets: [\(targets.joined(separator: ", "))]
            """
        try config.write(toFile: "\(harness.directory)/prometheus.yml", atomically: true, encoding: .utf8)
        let port = Int.random(in: 20_000...40_000)
        try harness.start(
            "prometheus", "/usr/bin/prometheus",
            [
                "--config.file=\(harness.directory)/prometheus.yml", "--storage.tsdb.path=\(harness.directory)/tsdb",
                "--web.listen-address=127.0.0.1:\(port)",
            ])
        let client = try GatewayClient(endpoint: harness.gatewayEndpoint, context: context, timeout: .seconds(5), retries: 0)
        let query =
            "http://127.0.0.1:\(port)/api/v1/query?query=" + "sum(rate(gateway_requests_total{outcome=\"answered\"}[10s]))"
            .addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        var rate: Double?
        let found = await eventually(within: .seconds(40)) {
            for n in 0..<50 { _ = try? await client.call(service: "posts", method: "posts.list", params: ["limit": .integer(Int64(n % 5 + 1))]) }
            guard let answer = try? await harness.fetch(query), let data = answer.stdout.data(using: .utf8),
                let json = try? JSONDecoder().decode(JSONValue.self, from: data),
                let value = json["data"]?["result"]?.arrayValue?.first?["value"]?.arrayValue?.last?.stringValue
            else { return false }
            rate = Double(value)
            return (rate ?? 0) > 0
        }
        #expect(found, "Prometheus found no request rate: \(harness.log("prometheus").suffix(2000))")
        let up = try await harness.fetch("http://127.0.0.1:\(port)/api/v1/query?query=up")
        #expect(up.stdout.components(separatedBy: #""1"]"#).count - 1 == 3, "every target up: \(up.stdout)")
    }

    @Test func test_aBadMetricsAddress_orOneInUse_stopsTheProcessSayingWhy() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let bad = try await harness.run("gateway", ["--metrics", "9464"])
        #expect(bad.status == 64 && bad.stderr.contains("POSTS_METRICS / --metrics: metrics address '9464' is not host:port"), "\(bad)")
        let context = try Context()
        try await harness.startGateway(["--metrics", "127.0.0.1:0"], context: context)
        let taken = try #require(await harness.metricsURL(of: "gateway")).replacingOccurrences(of: "http://", with: "")
            .replacingOccurrences(of: "/metrics", with: "")
        let service = try await harness.run("posts-service", ["--database", harness.databasePath, "--metrics", taken], limit: .seconds(10))
        #expect(service.status == 1 && service.stderr.contains("posts-service: cannot serve metrics at \(taken)"), "\(service)")
    }
}
