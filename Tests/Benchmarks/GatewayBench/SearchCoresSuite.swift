import Foundation
import Majordomo
import Synchronization
import ZeroMQ

/// Issue #44's "ranking on every core": one search replica's search.query
/// throughput with 1 session and with 2 (the same replica's index, started
/// again), clients keeping every session busy, beside the p99 of queries
/// sent one at a time to 1 session.
struct SearchCoresSuite {
    let lab: Lab
    let context: Context
    let corpusScript: String
    /// Given to the script before the corpus's path and size (`--paragraphs 2`).
    var corpusOptions: [String] = []
    let count: Int
    /// Queries each loaded run sends, in all.
    let requests: Int
    /// Clients at once in the loaded runs, each with one query outstanding:
    /// as many as the sessions, and twice as many.
    static let clients = [2, 4]

    private var probe: SearchProbe { SearchProbe(lab: lab, context: context, count: count) }

    func run() throws -> String {
        let corpus = "\(lab.directory)/corpus.jsonl"
        _ = try lab.time("/usr/bin/env", ["python3", corpusScript] + corpusOptions + [corpus, "\(count)"])
        try lab.startPostsService(sessions: 2, context: context)
        let first = try lab.startSearchService(context: context).pid
        _ = try lab.time("posts", ["import", "--json", corpus])
        try probe.waitCaughtUp(workers: 1)
        let queries = try QueryClasses(corpus: corpus).classes.flatMap(\.queries)
        let sequential = try load(queries, clients: 1, requests: max(400, requests / 4))
        let one = try Self.clients.map { try load(queries, clients: $0, requests: requests) }
        try lab.stopSearchService(first, context: context)
        // The same replica again (its slot's index and saved postings), with two sessions.
        let second = try lab.startSearchService(context: context, sessions: 2).pid
        try probe.waitCaughtUp(workers: 1)
        let two = try Self.clients.map { try load(queries, clients: $0, requests: requests) }
        try lab.stopSearchService(second, context: context)
        func row(_ name: String, _ run: Run) -> String {
            "| \(name) | \(String(format: "%.0f", run.rate)) | \(Report.format(run.latency.p50)) | \(Report.format(run.latency.p99)) |"
        }
        var lines = [
            "Corpus: \(count) posts (\((corpusScript as NSString).lastPathComponent)); \(queries.count) queries of every class (QueryClasses) "
                + "cycled, \(requests) per loaded run; one search replica (its slot's index directory, ranking postings loaded), "
                + "\(ProcessInfo.processInfo.activeProcessorCount) cores",
            "", "| search.query through the gateway | queries/s | p50 | p99 |", "|---|---|---|---|",
            row("1 session, 1 client, one query at a time", sequential),
        ]
        for (index, clients) in Self.clients.enumerated() {
            lines += [row("1 session, \(clients) clients at once", one[index]), row("2 sessions, \(clients) clients at once", two[index])]
        }
        lines.append("")
        for (index, clients) in Self.clients.enumerated() {
            lines.append(
                String(format: "\(clients) clients: 2 sessions / 1 session %.2f× the queries per second.", two[index].rate / one[index].rate))
        }
        return lines.joined(separator: "\n")
    }

    struct Run {
        let rate: Double
        let latency: Probe.Latency
    }

    /// `clients` threads, each with a socket of its own and one query
    /// outstanding, `requests` queries in all: queries per second, and each
    /// query's time from its send to its reply.
    @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
    private func load(_ queries: [String], clients: Int, requests: Int) throws -> Run {
        let times = Mutex<[Duration]>([])
        let failure = Mutex<String?>(nil)
        let next = Atomic<Int>(0)
        let clock = ContinuousClock()
        let start = clock.now
        let done = DispatchGroup()
        for _ in 0..<clients {
            done.enter()
            Thread { [context, endpoint = lab.gatewayEndpoint] in
                defer { done.leave() }
                do {
                    let socket = try Socket(context, .dealer)
                    try socket.connect(endpoint)
                    var mine: [Duration] = []
                    while true {
                        let index = next.add(1, ordering: .relaxed).oldValue
                        guard index < requests else { break }
                        let body = SearchProbe.query(queries[index % queries.count], id: index)
                        let (time, reply) = try Probe.roundTrip(socket, MDP.clientRequest(service: "search", body: [Frame(body)]))
                        guard reply.last?.string?.contains("\"result\"") == true else {
                            throw BenchError("search.query failed: \(reply.last?.string ?? "an empty reply")")
                        }
                        mine.append(time)
                    }
                    times.withLock { $0 += mine }
                } catch {
                    failure.withLock { $0 = "\(error)" }
                }
            }.start()
        }
        done.wait()
        if let failure = failure.withLock({ $0 }) { throw BenchError(failure) }
        let elapsed = start.duration(to: clock.now)
        let measured = times.withLock { $0 }
        return Run(rate: Double(measured.count) / SearchSuite.seconds(elapsed), latency: Probe.Latency(sorting: measured))
    }
}
