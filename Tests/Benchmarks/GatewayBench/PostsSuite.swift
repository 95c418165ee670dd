import Foundation
import Majordomo
import ZeroMQ

/// Issue #3's figures: posts.get round trip beside the raw one, posts.save
/// throughput, and `posts import` of generated posts.
struct PostsSuite {
    let lab: Lab
    let context: Context
    let samples: Int
    let saves: Int
    let importCount: Int

    /// The same figures on PostgreSQL, in a lab of its own, for the table
    /// that sets the two stores side by side.
    struct Figures {
        var get: Probe.Latency
        var saveRate: Double
        var imported: Duration
    }

    /// posts.get, posts.save and `posts import` with posts-service on `databaseURL`.
    func figures(databaseURL: String?) throws -> Figures {
        try lab.startPostsService(sessions: 4, databaseURL: databaseURL, context: context)
        let uids = try seed(1000)
        let get = try latency(of: uids)
        let saveRate = try saveThroughput()
        let file = try generate(importCount)
        return Figures(get: get, saveRate: saveRate, imported: try lab.time("posts", ["import", "--json", file]))
    }

    static func sideBySide(sqlite: Figures, postgres: Figures, importCount: Int) -> String {
        func rate(_ duration: Duration) -> String { "\(Int((Double(importCount) / Probe.seconds(duration)).rounded())) posts/s" }
        return [
            "| posts-service on | SQLite | PostgreSQL | PostgreSQL vs SQLite |", "|---|---|---|---|",
            "| posts.get p50 | \(Report.format(sqlite.get.p50)) | \(Report.format(postgres.get.p50)) | "
                + "\(String(format: "%.2f×", Report.micro(postgres.get.p50) / Report.micro(sqlite.get.p50))) |",
            "| posts.get p99 | \(Report.format(sqlite.get.p99)) | \(Report.format(postgres.get.p99)) | "
                + "\(String(format: "%.2f×", Report.micro(postgres.get.p99) / Report.micro(sqlite.get.p99))) |",
            "| posts.save, 100 in flight, 4 sessions | \(Int(sqlite.saveRate.rounded())) saves/s | \(Int(postgres.saveRate.rounded())) saves/s | "
                + "\(String(format: "%.2f×", postgres.saveRate / sqlite.saveRate)) |",
            "| `posts import` of \(importCount) posts | \(rate(sqlite.imported)) | \(rate(postgres.imported)) | "
                + "\(String(format: "%.2f×", Probe.seconds(sqlite.imported) / Probe.seconds(postgres.imported))) |",
        ].joined(separator: "\n")
    }

    func run(rawEndpoint: String) throws -> String {
        try lab.startPostsService(sessions: 4, context: context)
        let uids = try seed(1000)
        let (raw, get) = try interleavedLatency(of: uids, rawEndpoint: rawEndpoint)
        let saveRate = try saveThroughput()
        let file = try generate(importCount)
        // --json: no progress lines in the figures.
        let imported = try lab.time("posts", ["import", "--json", file])
        let local = try lab.time("posts", ["import", "--json", "--local", "\(lab.directory)/local.sqlite", file])
        func rate(_ duration: Duration) -> Int { Int((Double(importCount) / Probe.seconds(duration)).rounded()) }
        return [
            "| posts | p50 | p99 | p50 vs raw |", "|---|---|---|---|",
            "Round trips taken in turns of 250: raw, then posts.get, and again.", "",
            "| raw DEALER-ROUTER round trip | \(Report.format(raw.p50)) | \(Report.format(raw.p99)) | 1.00× |",
            "| posts.get through the gateway | \(Report.format(get.p50)) | \(Report.format(get.p99)) | "
                + "\(String(format: "%.2f×", Report.micro(get.p50) / Report.micro(raw.p50))) |",
            "", "| posts | rate |", "|---|---|",
            "| posts.save, 100 in flight, 4 sessions | \(Int(saveRate.rounded())) saves/s |",
            "| `posts import` of \(importCount) posts through the gateway | \(rate(imported)) posts/s "
                + "(\(String(format: "%.2f", Probe.seconds(imported))) s) |",
            "| `posts import --local` of the same file | \(rate(local)) posts/s (\(String(format: "%.2f", Probe.seconds(local))) s) |",
        ].joined(separator: "\n")
    }

    private func request(_ method: String, _ params: String, id: Int) -> [Frame] {
        MDP.clientRequest(service: "posts", body: [Frame(#"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#)])
    }

    private func post(_ uid: String, _ index: Int) -> String {
        #"{"uid":"\#(uid)","title":"Generated post \#(index)","content":"\#(String(repeating: "Lorem ipsum dolor sit amet. ", count: 8))"}"#
    }

    private func seed(_ count: Int) throws -> [String] {
        let socket = try Socket(context, .dealer)
        try socket.connect(lab.gatewayEndpoint)
        let uids = (0..<count).map { _ in UUID().uuidString }
        let posts = uids.enumerated().map { post($1, $0) }.joined(separator: ",")
        try socket.send(request("posts.saveMany", #"{"posts":[\#(posts)]}"#, id: 0))
        guard let reply = try socket.receive(), reply.last?.string?.contains("\"saved\":\(count)") == true else {
            throw BenchError("seeding failed")
        }
        return uids
    }

    private func latency(of uids: [String]) throws -> Probe.Latency {
        let socket = try Socket(context, .dealer)
        try socket.connect(lab.gatewayEndpoint)
        return try Probe.sample(samples, warmUp: 500) { index in try timedGet(on: socket, uid: uids[index % uids.count], id: index) }
    }

    /// One posts.get round trip, timed from the send until its reply
    /// arrives (not the check of the reply that follows). The request
    /// carries a budget in `params._meta`, as the product's client sends it:
    /// the gateway reads it, and writes what is left when it hands it on.
    private func timedGet(on socket: Socket, uid: String, id: Int) throws -> Duration {
        let (time, reply) = try Probe.roundTrip(socket, request("posts.get", #"{"uid":"\#(uid)","_meta":{"timeoutMs":10000}}"#, id: id))
        guard reply.last?.string?.contains("\"result\"") == true else { throw BenchError("posts.get failed") }
        return time
    }

    /// The raw round trip and posts.get in turns of `turn` round trips
    /// each, so both meet the same minutes of a noisy machine (measured one
    /// after the other, their ratio moved by a third between runs). Turns,
    /// not single round trips: each path stays as warm as when measured alone.
    private func interleavedLatency(of uids: [String], rawEndpoint: String, turn: Int = 250) throws -> (raw: Probe.Latency, get: Probe.Latency) {
        let gateway = try Socket(context, .dealer)
        try gateway.connect(lab.gatewayEndpoint)
        let raw = try Socket(context, .dealer)
        try raw.connect(rawEndpoint)
        let rawRequest = [Frame(), Frame(String(repeating: "x", count: 100))]
        var rawTimes: [Duration] = [], getTimes: [Duration] = []
        var index = 0
        while getTimes.count < samples {
            for _ in 0..<turn {
                let (time, _) = try Probe.roundTrip(raw, rawRequest)
                if index >= 500 { rawTimes.append(time) }
            }
            for _ in 0..<turn {
                let time = try timedGet(on: gateway, uid: uids[index % uids.count], id: index)
                if index >= 500 { getTimes.append(time) }
                index += 1
            }
        }
        return (Probe.Latency(sorting: rawTimes), Probe.Latency(sorting: getTimes))
    }

    private func saveThroughput() throws -> Double {
        let socket = try Socket(context, .dealer)
        try socket.connect(lab.gatewayEndpoint)
        let window = 100
        let clock = ContinuousClock()
        let start = clock.now
        var sent = 0
        var received = 0
        func sendOne() throws {
            try socket.send(request("posts.save", #"{"post":\#(post(UUID().uuidString, sent))}"#, id: sent))
            sent += 1
        }
        while sent < window { try sendOne() }
        while received < saves {
            guard let reply = try socket.receive(), reply.last?.string?.contains("\"result\"") == true else { throw BenchError("posts.save failed") }
            received += 1
            if sent < saves { try sendOne() }
        }
        return Double(saves) / Probe.seconds(start.duration(to: clock.now))
    }

    /// JSON Lines of generated posts (about 320 bytes each).
    private func generate(_ count: Int) throws -> String {
        let path = "\(lab.directory)/import.jsonl"
        let lines = (0..<count).map { post(UUID().uuidString, $0) }.joined(separator: "\n")
        try lines.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
