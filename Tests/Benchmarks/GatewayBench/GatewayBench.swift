import ArgumentParser
import Foundation
import Majordomo
import ZeroMQ

/// `make bench`: throughput and latency through the real gateway, each beside
/// a raw libzmq DEALER-ROUTER echo measured in the same run. (Started from
/// main.swift.)
struct GatewayBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gateway-bench",
        abstract: "Measures the gateway against a raw DEALER-ROUTER round trip; prints Markdown."
    )

    @Option(help: "Directory holding the gateway and echo-worker executables.")
    var binaries: String = ".build/release"
    @Option(help: "Requests per throughput run.") var requests = 200_000
    @Option(help: "Requests in flight in pipelined runs (below the gateway's client limit).") var window = 500
    @Option(help: "Round trips per latency run.") var samples = 20_000
    @Option(help: "Body size in bytes.") var bodySize = 100
    @Option(help: "MDP sessions per worker process in the multi-session runs.") var sessions = 16
    @Option(
        help:
            "Which figures: gateway, posts, search, search-cores (one search replica with 1 session and with 2), all, stores (SQLite beside PostgreSQL; needs --database-url), or, in this process, ranking or json (ours beside Foundation's)."
    )
    var suite = "all"
    @Option(help: "With suite 'ranking': a corpus (JSON Lines of posts) to read instead of generating --search-posts of --search-corpus.")
    var corpusFile: String?
    @Option(help: "With suite 'ranking': only the query classes whose name holds this (for example 'phrase').")
    var classes: String?
    @Option(help: "Posts in the search corpus.") var searchPosts = 100_000
    @Flag(help: "With suite 'ranking': the same classes on Tantivy after ours (Tests/Benchmarks/beside-tantivy.py; pip install tantivy).")
    var besideTantivy = false
    @Option(
        help:
            "The search corpus: manpages (their paragraphs, as installed), unigram (any size, words drawn by the pages' frequencies) or unigram-long (the same, posts about twice as long)."
    )
    var searchCorpus = "manpages"
    @Option(help: "Posts generated for the import run.") var importPosts = 100_000
    @Option(help: "Saves in the posts.save throughput run.") var saves = 20_000
    @Option(help: "Internal: serve a raw ROUTER echo on this endpoint.") var rawEchoServer: String?
    @Option(help: "With suite 'stores': a PostgreSQL database (postgres://…, empty) to set beside SQLite.") var databaseUrl: String?

    @Flag(
        help:
            "CURVE on every connection, ipc:// too: the gateway, workers, services, the raw baseline and this program's clients (keys made for the run)."
    )
    var curve = false

    func run() throws {
        if let endpoint = rawEchoServer { return try RawEchoServer.serve(endpoint) }
        if suite == "ranking" { return try ranking() }
        if suite == "json" {
            print("Machine: \(Report.machine)\n")
            return print(try JSONSuite(samples: max(5, samples / 1000)).run())
        }
        let keys = curve ? try LabKeys() : nil
        defer { keys?.remove() }
        let lab = try Lab(binaries: binaries, keys: keys)
        defer { lab.shutdown() }
        let context = try Context(security: keys?.security ?? .none)
        let body = Frame(String(repeating: "x", count: bodySize))
        var rows: [Row] = []

        let rawEndpoint = try lab.startRawEcho(self: CommandLine.arguments[0])
        try lab.startGateway()
        print("Command: `\(CommandLine.arguments.joined(separator: " "))`")
        if curve { print("Security: CURVE on every connection (POSTS_CURVE_IPC=1), the raw baseline included.") }
        print("Machine: \(Report.machine), libzmq \(Context.version.major).\(Context.version.minor).\(Context.version.patch)\n")
        if suite == "posts" || suite == "all" {
            print(
                try PostsSuite(lab: lab, context: context, samples: samples / 2, saves: saves, importCount: importPosts).run(rawEndpoint: rawEndpoint)
            )
            print("")
        }
        if suite == "stores" {
            guard let databaseUrl else { throw BenchError("--suite stores needs --database-url postgres://… (an empty database)") }
            // Each store in a lab of its own (gateway, posts-service, data), one after the other.
            func figures(_ url: String?) throws -> PostsSuite.Figures {
                try inLabOfItsOwn(keys: keys) { storeLab in
                    try PostsSuite(lab: storeLab, context: context, samples: samples / 2, saves: saves, importCount: importPosts).figures(
                        databaseURL: url)
                }
            }
            let sqlite = try figures(nil)
            let postgres = try figures(databaseUrl)
            print(PostsSuite.sideBySide(sqlite: sqlite, postgres: postgres, importCount: importPosts))
            return
        }
        if suite == "search" || suite == "all" {
            // Its own gateway and database: the posts suite's data would skew the corpus.
            print(
                try inLabOfItsOwn(keys: keys) { searchLab in
                    try SearchSuite(
                        lab: searchLab, context: context, corpusScript: corpusScript, corpusOptions: corpusOptions, count: searchPosts,
                        samples: samples / 4
                    ).run()
                })
            print("")
        }
        if suite == "search-cores" {
            print(
                try inLabOfItsOwn(keys: keys) { coresLab in
                    try SearchCoresSuite(
                        lab: coresLab, context: context, corpusScript: corpusScript, corpusOptions: corpusOptions, count: searchPosts,
                        requests: requests / 25
                    ).run()
                })
            return
        }
        guard suite == "gateway" || suite == "all" else { return }
        func latency(_ name: String, _ endpoint: String, gateway: Bool) throws {
            rows.append(try Row(name, latency: Probe.latency(context, endpoint, body: body, samples: samples, gateway: gateway)))
        }
        try latency("raw DEALER-ROUTER", rawEndpoint, gateway: false)
        try lab.startEchoWorker(sessions: 1, context: context)
        try latency("gateway, 1 worker, async handler", lab.gatewayEndpoint, gateway: true)
        try lab.stopEchoWorkers(context: context)
        try lab.startEchoWorker(sessions: 1, inline: true, context: context)
        try latency("gateway, 1 worker, synchronous handler", lab.gatewayEndpoint, gateway: true)

        var rates: [(String, Double)] = []
        func measure(_ name: String) throws {
            rates.append((name, try Probe.throughput(context, lab.gatewayEndpoint, body: body, requests: requests, window: window, gateway: true)))
        }
        rates.append(
            ("raw DEALER-ROUTER", try Probe.throughput(context, rawEndpoint, body: body, requests: requests, window: window, gateway: false)))
        try measure("gateway, 1 worker × 1 session, synchronous handler")
        try lab.startEchoWorker(sessions: 1, inline: true, context: context)
        try measure("gateway, 2 workers × 1 session, synchronous handler")
        try lab.stopEchoWorkers(context: context)
        try lab.startEchoWorker(sessions: 1, context: context)
        try measure("gateway, 1 worker × 1 session, async handler")
        try lab.stopEchoWorkers(context: context)
        for _ in 0..<2 { try lab.startEchoWorker(sessions: sessions, context: context) }
        try measure("gateway, 2 workers × \(sessions) sessions, async handler")
        try lab.stopEchoWorkers(context: context)
        for _ in 0..<2 { try lab.startEchoWorker(sessions: sessions, inline: true, context: context) }
        try measure("gateway, 2 workers × \(sessions) sessions, synchronous handler")
        rates.append(
            (
                "same, through the async MajordomoClient",
                try { [endpoint = lab.gatewayEndpoint, requests, window] in
                    try blocking { try await Probe.asyncThroughput(context, endpoint, body: body, requests: requests / 4, concurrency: window) }
                }()
            ))

        print(
            Report(
                rows: rows,
                throughput: rates,
                settings:
                    "body \(bodySize) B, window \(window), \(requests) requests per pipelined run, \(samples) sequential round trips, echo workers "
                    + "in --raw mode"
            ).markdown)
    }

    /// `body` with a lab of its own (a gateway, and the processes `body`
    /// starts), shut down after.
    @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
    private func inLabOfItsOwn<T>(keys: LabKeys?, _ body: (Lab) throws -> T) throws -> T {
        let lab = try Lab(binaries: binaries, keys: keys)
        defer { lab.shutdown() }
        try lab.startGateway()
        return try body(lab)
    }

    private var corpusScript: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("corpus/\(searchCorpus.hasPrefix("unigram") ? "unigram" : "manpages").py").path
    }

    /// What the corpus script is given before where to write and how many.
    private var corpusOptions: [String] { searchCorpus == "unigram-long" ? ["--paragraphs", "2"] : [] }

    /// The ranking suite: no processes, one corpus (read or generated).
    @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
    private func ranking() throws {
        var corpus = corpusFile ?? ""
        var generated: String?
        if corpusFile == nil {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ranking-\(getpid())").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            (corpus, generated) = ("\(directory)/corpus.jsonl", directory)
            let script = Process()
            script.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            script.arguments = ["python3", corpusScript] + corpusOptions + [corpus, "\(searchPosts)"]
            try script.run()
            script.waitUntilExit()
            guard script.terminationStatus == 0 else { throw BenchError("\(corpusScript) failed") }
        }
        defer { if let generated { try? FileManager.default.removeItem(atPath: generated) } }
        print("Machine: \(Report.machine)\n")
        let tantivy = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("beside-tantivy.py").path
        print(try RankingSuite(corpus: corpus, samples: max(50, samples / 40), tantivyScript: besideTantivy ? tantivy : nil, classes: classes).run())
    }
}
