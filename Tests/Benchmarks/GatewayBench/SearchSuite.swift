import Domain
import Foundation
import LocalPlatform
import Majordomo
import Synchronization
import ZeroMQ

/// Issue #4's figures on a corpus of Debian's manual pages: query latency end
/// to end with 1 and 2 workers beside the same queries on SQLite's FTS5 in
/// this process (`FTS5Baseline`), freshness after a save, and worker memory.
struct SearchSuite {
    let lab: Lab
    let context: Context
    let corpusScript: String
    /// Given to the script before the corpus's path and size (`--paragraphs 2`).
    var corpusOptions: [String] = []
    let count: Int
    let samples: Int

    static let queries = [
        "file", "network", "certificate", "kernel module", "memory", "signal", "socket", "directory",
        "permission denied", "process", "format", "default value", "error", "output", "instance",
        "netw", "conf", "\"command line\"", "\"regular expression\"", "user group", "compress", "print",
        "encrypt key", "locale", "terminal", "thread", "timeout", "ssl", "compute instances", "zone",
    ]

    private var probe: SearchProbe { SearchProbe(lab: lab, context: context, count: count) }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    func run() throws -> String {
        let corpus = "\(lab.directory)/corpus.jsonl"
        _ = try lab.time("/usr/bin/env", ["python3", corpusScript] + corpusOptions + [corpus, "\(count)"])
        try lab.startPostsService(sessions: 4, context: context)
        // The first worker follows the import, as a running worker would.
        let first = try lab.startSearchService(context: context).pid
        let servers = [("gateway", lab.pids["gateway"] ?? 0), ("posts-service", lab.pids["posts-service"] ?? 0), ("search-service", first)]
        let sampleCPU = { servers.map { CPUTime.seconds(of: $0.1) } + [CPUTime.waitedChildren()] }
        let cpuBefore = sampleCPU()
        let importTime = try lab.time("posts", ["import", "--json", corpus])
        let afterImport = try probe.waitCaughtUp(workers: 1)
        // What each process spent on the import and the follow, in µs per post.
        let cpu = zip(servers.map(\.0) + ["posts import"], zip(sampleCPU(), cpuBefore))
            .map { name, spent in String(format: "\(name) %.0f", (spent.0 - spent.1) / Double(count) * 1e6) }
        let baseline = try baselineLatency(corpus)
        let one = try latency()
        let classes = try QueryClasses(corpus: corpus).classes.map { ($0.name, $0.queries, try latency($0.queries, samples: max(20, samples / 5))) }
        // On disk, the second starts from a copy of the first's index.
        let (second, secondCatchUp) = try lab.startSearchService(context: context)
        let secondRanked = secondCatchUp + (try probe.waitCaughtUp(workers: 2))
        let two = try latency()
        let fresh = try freshness(workers: [first, second])
        let stats = try probe.request("search", #"{"jsonrpc":"2.0","id":1,"method":"search.stats"}"#)["result"] as? [String: Any] ?? [:]
        let indexMB = Double(stats["indexBytes"] as? Int ?? 0) / 1_048_576
        let memory = [first, second].map { ProcStatus.megabytes("\($0)") }
        let privateMemory = [first, second].map { ProcStatus.megabytes("\($0)", field: "RssAnon:") }
        // A third, in an index directory of its own, builds from the feed (as
        // on another host, where no copy is at hand), then leaves.
        let (third, catchUp) = try lab.startSearchService(context: context, arguments: ["--index-dir", "\(lab.directory)/from-the-feed"])
        let rankingLoad = try probe.waitCaughtUp(workers: 3)
        try lab.stopSearchService(third, context: context)
        // Another host's way in: a snapshot taken while the workers run, and a worker started on it.
        let snapshot = try lab.time("search-service", ["--snapshot-to", "\(lab.directory)/snapshot"])
        let (fromSnapshot, snapshotStart) = try lab.startSearchService(context: context, arguments: ["--index-dir", "\(lab.directory)/snapshot"])
        let snapshotRanked = snapshotStart + (try waitRanked(pid: fromSnapshot))
        try lab.stopSearchService(fromSnapshot, context: context)
        // Started again: the first worker stops, and a new process takes its
        // slot, with the index it left (POSTS_SEARCH_INDEX_DIR=memory: builds anew).
        let stop = try lab.stopSearchService(first, context: context)
        let postings = try? FileManager.default.attributesOfItem(atPath: "\(lab.directory)/search/1/ranking.postings")
        let postingsMB = Double(postings?[.size] as? Int ?? 0) / 1_048_576
        let (restarted, restart) = try lab.startSearchService(context: context)
        let restartRanked = restart + (try waitRanked(pid: restarted))
        func row(_ name: String, _ value: Probe.Latency) -> String {
            "| \(name) | \(Report.format(value.p50)) | \(Report.format(value.p99)) | "
                + "\(String(format: "%.2f×", Report.micro(value.p50) / Report.micro(baseline.p50))) |"
        }
        var lines = [
            "Corpus: \(count) posts (\(corpusScript.hasSuffix("unigram.py") ? "words drawn by the frequencies of" : "paragraphs of") Debian's "
                + "English manual pages, Tests/Benchmarks/corpus/\((corpusScript as NSString).lastPathComponent)); \(Self.queries.count) "
                + "queries cycled, \(samples) sequential samples each",
            "", "| search.query | p50 | p99 | p50 vs same FTS5 in-process |", "|---|---|---|---|",
            row("same queries, FTS5 table of the same posts, in-process", baseline),
            row("end to end, 1 worker", one), row("end to end, 2 workers", two),
            "", "| search.query end to end, 1 worker, by class (\(max(20, samples / 5)) samples each) | p50 | p99 | queries |",
            "|---|---|---|---|",
        ]
        for (name, queries, latency) in classes {
            lines.append("| \(name) | \(Report.format(latency.p50)) | \(Report.format(latency.p99)) | \(queries.joined(separator: ", ")) |")
        }
        lines += [
            "", "| freshness (acknowledged posts.save → found by both workers) | p50 | p99 |", "|---|---|---|",
            "| 200 saves, one at a time | \(Report.format(fresh.p50)) | \(Report.format(fresh.p99)) |",
            "",
            String(
                format: "Import of \(count) posts through the gateway (`posts import --json`): %.1f s, %.0f posts/s; the worker that "
                    + "followed it held every post and ranked by its postings %.1f s after the import ended.",
                Self.seconds(importTime), Double(count) / Self.seconds(importTime), Self.seconds(afterImport)),
            "",
            "CPU time spent from the import's start until that worker held every post, µs per post: \(cpu.joined(separator: ", ")) "
                + "(\(ProcessInfo.processInfo.activeProcessorCount) cores).",
            "",
            String(
                format:
                    "A new worker in an index directory of its own built its index of all \(count) posts from the feed and registered in %.1f s, and ranked by its postings %.1f s "
                    + "later; a second one (from a copy of the first's index and its saved postings, when on disk) registered in %.2f s "
                    + "and ranked by its postings at %.2f s. The first, stopped, saved its postings (%.0f MB) and exited in %.2f s; "
                    + "started again, with the index and postings it kept, it registered in %.2f s and ranked by its postings at %.2f s.",
                Self.seconds(catchUp), Self.seconds(rankingLoad), Self.seconds(secondCatchUp), Self.seconds(secondRanked), postingsMB,
                Self.seconds(stop), Self.seconds(restart), Self.seconds(restartRanked)),
            "",
            String(
                format: "A snapshot for another host (`search-service --snapshot-to`, taken while the workers ran) took %.2f s; a worker "
                    + "started on it registered in %.2f s and ranked by its postings at %.2f s.",
                Self.seconds(snapshot), Self.seconds(snapshotStart), Self.seconds(snapshotRanked)),
            "",
            "Worker memory, the one that followed the import and its copy (VmRSS): \(memory.map { String(format: "%.0f MB", $0) }.joined(separator: ", ")), of which private "
                + "(RssAnon): \(privateMemory.map { String(format: "%.0f MB", $0) }.joined(separator: ", ")); index size: "
                + "\(String(format: "%.0f MB", indexMB)).",
        ]
        return lines.joined(separator: "\n")
    }

    /// Until the worker `pid` ranks by its postings; answers how long that took.
    @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
    private func waitRanked(pid: Int32) throws -> Duration {
        let start = ContinuousClock.now
        while true {
            guard start.duration(to: .now) < .seconds(300) else { throw BenchError("search worker \(pid) did not load its ranking") }
            let result = try probe.request("search", #"{"jsonrpc":"2.0","id":1,"method":"search.stats"}"#)["result"] as? [String: Any] ?? [:]
            let stats = result["index"] as? [String: Any] ?? [:]
            if stats["pid"] as? Int == Int(pid), result["rankingLoaded"] as? Bool == true { return start.duration(to: .now) }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// Each round trip timed from the send until its reply arrives: the
    /// request is written before, and the reply read and checked after
    /// (Foundation's JSONSerialization on a page of hits costs more than
    /// some hops).
    private func latency(_ queries: [String] = Self.queries, samples: Int? = nil) throws -> Probe.Latency {
        let socket = try Socket(context, .dealer)
        try socket.connect(lab.gatewayEndpoint)
        return try Probe.sample(samples ?? self.samples, warmUp: min(100, queries.count * 4)) { index in
            let message = MDP.clientRequest(service: "search", body: [Frame(SearchProbe.query(queries[index % queries.count], id: index))])
            let (time, reply) = try Probe.roundTrip(socket, message)
            guard let data = reply.last.map({ Data($0.bytes) }),
                let object = try JSONSerialization.jsonObject(with: data) as? [String: Any], object["result"] != nil
            else { throw BenchError("search.query failed: \(reply.last?.string ?? "an empty reply")") }
            return time
        }
    }

    private func baselineLatency(_ corpus: String) throws -> Probe.Latency {
        let index = try FTS5Baseline(posts: try RankingSuite.posts(in: corpus).map { ($0.post.title, $0.post.content) })
        let clock = ContinuousClock()
        var measured: [Duration] = []
        for position in -100..<samples {  // 100 warm-up queries
            let query = Self.queries[(position + 100) % Self.queries.count]
            let start = clock.now
            _ = try index.search(query)
            if position >= 0 { measured.append(start.duration(to: clock.now)) }
        }
        return Probe.Latency(sorting: measured)
    }

    private func freshness(workers: [Int32]) throws -> Probe.Latency {
        let socket = try Socket(context, .dealer)
        try socket.connect(lab.gatewayEndpoint)
        let clock = ContinuousClock()
        var times: [Duration] = []
        for index in 0..<200 {
            let word = "fresh\(UUID().uuidString.prefix(8).lowercased())x\(index)"
            let save =
                #"{"jsonrpc":"2.0","id":\#(index),"method":"posts.save","params":{"post":{"uid":"\#(UUID().uuidString)","title":"\#(word)","#
                + #""content":"fresh"}}}"#
            _ = try probe.request("posts", save, socket: socket)
            let acknowledged = clock.now
            var found: Set<Int> = []
            while found.count < workers.count {
                let result = try probe.request("search", SearchProbe.query(word, id: index), socket: socket)["result"] as? [String: Any] ?? [:]
                if result["total"] as? Int == 1, let worker = result["pid"] as? Int { found.insert(worker) }
                guard acknowledged.duration(to: clock.now) < .seconds(10) else { throw BenchError("a save was never found") }
            }
            times.append(acknowledged.duration(to: clock.now))
        }
        return Probe.Latency(sorting: times)
    }
}
