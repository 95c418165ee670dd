import Domain
import Foundation
import LocalPlatform
import Search
import Synchronization

/// #26's ranking in one process, on one corpus: each query class's page
/// from SQLite's FTS5 (`FTS5Baseline`: every match scored), beside
/// `ImpactRanker` (block-max postings, the last word completed to its most
/// common words), and what building each costs.
struct RankingSuite {
    let corpus: String
    let samples: Int
    /// Tests/Benchmarks/beside-tantivy.py, to run the same classes on
    /// Tantivy after ours (`--beside-tantivy`); nil: ours and FTS5 only.
    var tantivyScript: String? = nil
    /// Only the classes whose name holds this; nil: every class.
    var classes: String? = nil

    func run() throws -> String {
        let documents = try Self.posts(in: corpus)
        let clock = ContinuousClock()
        let before = ProcStatus.megabytes("self", field: "RssAnon:")
        var start = clock.now
        let ranker = try ImpactRanker.fts5()
        for batch in stride(from: 0, to: documents.count, by: 10_000) {
            let page = documents[batch..<min(batch + 10_000, documents.count)]
            try ranker.load(
                page.map { ($0.rowid, $0.post.title, $0.post.content) }, through: page.last!.rowid, complete: batch + 10_000 >= documents.count)
        }
        let impactBuild = start.duration(to: clock.now)
        let impactMemory = ProcStatus.megabytes("self", field: "RssAnon:") - before
        let size = ranker.size

        start = clock.now
        let fts5 = try FTS5Baseline(posts: documents.map { ($0.post.title, $0.post.content) })
        let fts5Build = start.duration(to: clock.now)

        var rows = [
            "Corpus: \(documents.count) posts (\((corpus as NSString).lastPathComponent)). Command: `\(CommandLine.arguments.joined(separator: " "))`",
            "",
            "| | FTS5, every match ranked | impact index |",
            "|---|---|---|",
            "| build, in this process | \(String(format: "%.1f s", Probe.seconds(fts5Build))) | \(String(format: "%.1f s", Probe.seconds(impactBuild))) |",
            "| memory (RssAnon growth) | | \(String(format: "%.0f MB", impactMemory)); \(size.postings) postings, \(size.stems) stems |",
            "",
            "Query latency, p50 / p99 (10 hits; the last word unfinished, as the interface sends it):",
            "",
            "| class | FTS5 | impact index | impact, total exact | matches scored, mean |",
            "|---|---|---|---|---|",
        ]
        var ours: [(name: String, queries: [String], latency: Probe.Latency, meanTotal: Double)] = []
        for (name, queries) in try QueryClasses(corpus: corpus).classes where classes.map({ name.contains($0) }) ?? true {
            let reference = try Self.latency(samples, queries) { query in
                _ = try fts5.search(query)
            }
            var (exact, scored, totals) = (0, 0, 0)
            let impact = try Self.latency(samples, queries) { query in
                guard let found = try ranker.rank(query, keep: 10) else { return }
                if found.totalIsExact { exact += 1 }
                scored += found.scored
                totals += found.total
            }
            ours.append((name, queries, impact, Double(totals) / Double(samples + 20)))
            rows.append(
                "| \(name) | \(Self.format(reference)) | \(Self.format(impact)) | \(exact * 100 / (samples + 20))% | \(scored / (samples + 20)) |")
            // Classes chosen by name: each query of them too.
            guard classes != nil else { continue }
            for query in queries {
                var (total, scored) = (0, 0)
                let alone = try Self.latency(samples, [query]) { query in
                    let found = try ranker.rank(query, keep: 10)
                    (total, scored) = (found?.total ?? 0, found?.scored ?? 0)
                }
                rows.append("| \(query) | | \(Self.format(alone)) | total \(total) | \(scored) |")
            }
        }
        // The same postings saved, then read in place from the mapped file, as a search worker ranks once it saved them.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ranking-postings-\(getpid())").path
        defer { unlink(path) }
        let id = UUID()
        // The copy written is let go at the end of this closure, before the ranking takes up the file.
        let (bytes, version) = try { () throws -> (Int, Int) in
            guard let saved = ranker.saved() else { throw BenchError("the ranking does not hold every post") }
            return (try StoredPostings.write(saved.index, loadedThrough: saved.loadedThrough, id: id, to: path), saved.version)
        }()
        start = clock.now
        let mapped = try StoredPostings.read(from: path, id: id)
        let takeUp = start.duration(to: clock.now)
        // What taking it up gives back (FTS5's tables, made since, stay): the growth its build left, less that.
        let held = ProcStatus.megabytes("self", field: "RssAnon:")
        guard ranker.adopt(mapped.index, ofVersion: version) else { throw BenchError("the ranking changed while it was saved") }
        let mappedMemory = impactMemory - (held - ProcStatus.megabytes("self", field: "RssAnon:"))
        rows += [
            "",
            String(
                format: "Read in place from its saved file (%.1f MB; taken up in %.2f s), the memory it was built in given back: "
                    + "RssAnon growth %.0f MB (was %.0f MB). p50 / p99 by class:", Double(bytes) / 1_048_576, Probe.seconds(takeUp), mappedMemory,
                impactMemory),
            "",
            "| class | in memory | read in place |",
            "|---|---|---|",
        ]
        for (position, mine) in ours.enumerated() {
            let inPlace = try Self.latency(samples, mine.queries) { query in _ = try ranker.rank(query, keep: 10) }
            rows.append("| \(mine.name) | \(Self.format(mine.latency)) | \(Self.format(inPlace)) |")
            ours[position].latency = inPlace
        }
        if let tantivyScript {
            rows += try besideTantivy(tantivyScript, ours, build: impactBuild, memory: mappedMemory, saved: bytes)
        }
        return rows.joined(separator: "\n")
    }

    /// The same classes on Tantivy, in a process of its own after ours
    /// (beside-tantivy.py), and each class's ratio.
    @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
    private func besideTantivy(
        _ script: String, _ ours: [(name: String, queries: [String], latency: Probe.Latency, meanTotal: Double)], build: Duration,
        memory: Double, saved: Int
    ) throws -> [String] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tantivy-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let classes = ours.map { ["name": $0.name, "queries": $0.queries] as [String: Any] }
        try JSONSerialization.data(withJSONObject: classes).write(to: URL(fileURLWithPath: "\(directory)/classes.json"))
        let output = "\(directory)/tantivy.json"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, corpus, "\(directory)/classes.json", "\(samples)", "\(directory)/index"]
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let result = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [String: Any],
            let theirs = result["classes"] as? [[String: Any]]
        else { throw BenchError("\(script) failed (exit \(process.terminationStatus)); is tantivy installed? (pip install tantivy)") }
        func number(_ key: String, _ object: [String: Any] = result) -> Double { (object[key] as? NSNumber)?.doubleValue ?? 0 }
        var rows = [
            "",
            "Beside \(result["version"] as? String ?? "Tantivy") (its Python bindings, in a process of its own, after ours; the same "
                + "posts and classes; Tests/Benchmarks/beside-tantivy.py says what differs in meaning):",
            "",
            "| | ours | Tantivy |",
            "|---|---|---|",
            String(format: "| build, in its process | %.1f s | %.1f s |", Probe.seconds(build), number("buildSeconds")),
            String(
                format: "| on disk | %.1f MB of saved postings (the texts are in the index file) | %.1f MB, the texts stored |",
                Double(saved) / 1_048_576, number("bytesOnDisk") / 1_048_576),
            String(
                format:
                    "| memory | %.0f MB RssAnon growth (the postings read in place from their saved file) | %.0f MB RssAnon (the index memory-mapped) |",
                memory, number("rssAnonMB")),
            "",
            "| class | ours p50 / p99 (read in place) | Tantivy p50 / p99 | ours / Tantivy, p50 and p99 (≤ 1: ours as fast or faster) | mean total, ours / Tantivy |",
            "|---|---|---|---|---|",
        ]
        for (mine, other) in zip(ours, theirs) {
            let (p50, p99) = (number("p50", other), number("p99", other))
            let (myP50, myP99) = (Probe.seconds(mine.latency.p50) * 1e3, Probe.seconds(mine.latency.p99) * 1e3)
            rows.append(
                String(
                    format: "| %@ | %.2f / %.2f ms | %.2f / %.2f ms | %.2f, %.2f | %.0f / %.0f |", mine.name, myP50, myP99, p50, p99, myP50 / p50,
                    myP99 / p99, mine.meanTotal, number("meanTotal", other)))
        }
        return rows
    }

    private static func latency(_ samples: Int, _ queries: [String], _ body: (String) throws -> Void) throws -> Probe.Latency {
        let clock = ContinuousClock()
        var times: [Duration] = []
        for index in 0..<(samples + 20) {
            let start = clock.now
            try body(queries[index % queries.count])
            if index >= 20 { times.append(start.duration(to: clock.now)) }
        }
        return Probe.Latency(sorting: times)
    }

    private static func format(_ latency: Probe.Latency) -> String {
        String(format: "%.2f / %.2f ms", Probe.seconds(latency.p50) * 1e3, Probe.seconds(latency.p99) * 1e3)
    }

    /// The corpus's posts (JSON Lines), each numbered by its line from 1.
    static func posts(in corpus: String) throws -> [(rowid: Int64, post: Post)] {
        let lines = try String(contentsOfFile: corpus, encoding: .utf8).split(separator: "\n")
        return try lines.enumerated().compactMap { offset, line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String],
                let uid = object["uid"].flatMap(UUID.init(uuidString:))
            else { return nil }
            return (Int64(offset + 1), Post(uid: uid, title: object["title"] ?? "", content: object["content"] ?? ""))
        }
    }
}
