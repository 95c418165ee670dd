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

    /// The CPU, in microseconds, each echo worker measured beside posts.get
    /// spends on a request before it answers (`echo-worker --busy`).
    static let busyMicroseconds = [0, 10, 20, 40]

    func run(rawEndpoint: String) throws -> String {
        try lab.startPostsService(sessions: 4, context: context)
        for busy in Self.busyMicroseconds {
            try lab.startEchoWorker(sessions: 1, service: "echo-\(busy)us", busyMicroseconds: busy, context: context)
        }
        let uids = try seed(1000)
        let gateway = try Socket(context, .dealer)
        try gateway.connect(lab.gatewayEndpoint)
        let raw = try Socket(context, .dealer)
        try raw.connect(rawEndpoint)
        let body = Frame(String(repeating: "x", count: 100))
        let echoes = Self.busyMicroseconds.map { busy in
            let request = MDP.clientRequest(service: Frame("echo-\(busy)us"), body: [body])
            return { (_: Int) throws -> Duration in try Probe.roundTrip(gateway, request).time }
        }
        let rawRequest = [Frame(), body]
        let times = try interleaved(
            [{ _ in try Probe.roundTrip(raw, rawRequest).time }] + echoes + [
                { index in try timedGet(on: gateway, uid: uids[index % uids.count], id: index) }
            ])
        let rawTime = times[0], get = times[times.count - 1]
        let inService = try serviceTime(of: "posts.get")
        let saveRate = try saveThroughput()
        let file = try generate(importCount)
        // --json: no progress lines in the figures.
        let imported = try lab.time("posts", ["import", "--json", file])
        let local = try lab.time("posts", ["import", "--json", "--local", "\(lab.directory)/local.sqlite", file])
        func rate(_ duration: Duration) -> Int { Int((Double(importCount) / Probe.seconds(duration)).rounded()) }
        func row(_ name: String, _ latency: Probe.Latency) -> String {
            "| \(name) | \(Report.format(latency.p50)) | \(Report.format(latency.p99)) | "
                + "\(String(format: "%.2f×", Report.micro(latency.p50) / Report.micro(rawTime.p50))) |"
        }
        let echoRows = zip(Self.busyMicroseconds, times[1..<(times.count - 1)]).map { busy, latency in
            row(busy == 0 ? "echo through the gateway (async handler)" : "echo through the gateway, \(busy) µs of CPU a request", latency)
        }
        return
            ([
                "| posts | p50 | p99 | p50 vs raw |", "|---|---|---|---|",
                row("raw DEALER-ROUTER round trip", rawTime),
            ] + echoRows + [
                row("posts.get through the gateway", get), "",
                "Round trips taken in turns of 250, each path in its turn, and again. The echo workers "
                    + "(`echo-worker --raw --busy N`) spend N µs of CPU on a request before they answer, "
                    + "as a handler's work would: what the transport adds to a service that takes that long. "
                    + "posts-service's own time for a posts.get, from the router's reading of the request to its reply "
                    + "(`rpc.stats` p50): \(String(format: "%.1f", inService * 1000)) µs.",
                "", "| posts | rate |", "|---|---|",
                "| posts.save, 100 in flight, 4 sessions | \(Int(saveRate.rounded())) saves/s |",
                "| `posts import` of \(importCount) posts through the gateway | \(rate(imported)) posts/s "
                    + "(\(String(format: "%.2f", Probe.seconds(imported))) s) |",
                "| `posts import --local` of the same file | \(rate(local)) posts/s (\(String(format: "%.2f", Probe.seconds(local))) s) |",
            ]).joined(separator: "\n")
    }

    /// A method's p50 inside posts-service, in milliseconds (`rpc.stats`).
    private func serviceTime(of method: String) throws -> Double {
        let socket = try Socket(context, .dealer)
        try socket.connect(lab.gatewayEndpoint)
        try socket.send(MDP.clientRequest(service: "posts", body: [Frame(#"{"jsonrpc":"2.0","id":1,"method":"rpc.stats"}"#)]))
        guard let text = try socket.receive()?.last?.string,
            let result = (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])?["result"] as? [String: Any],
            let methods = result["methods"] as? [[String: Any]],
            let p50 = methods.first(where: { $0["method"] as? String == method })?["p50Ms"] as? Double
        else { throw BenchError("rpc.stats gave no p50 for \(method)") }
        return p50
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

    /// Each path's round trips in turns of `turn` (each path its turn, then
    /// again), so all meet the same minutes of a noisy machine (measured one
    /// after the other, their ratio moved by a third between runs). Turns,
    /// not single round trips: each path stays as warm as when measured
    /// alone. A path is given the round trip's number, warm-up included.
    private func interleaved(_ paths: [(Int) throws -> Duration], turn: Int = 250) throws -> [Probe.Latency] {
        var times = paths.map { _ in [Duration]() }
        var index = 0
        while times[0].count < samples {
            for (path, roundTrip) in paths.enumerated() {
                for offset in 0..<turn {
                    let time = try roundTrip(index + offset)
                    if index >= 500 { times[path].append(time) }
                }
            }
            index += turn
        }
        return times.map { Probe.Latency(sorting: $0) }
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
