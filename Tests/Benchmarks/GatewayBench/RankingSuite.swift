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

    func run() throws -> String {
        let documents = try Self.posts(in: corpus)
        let posts = Dictionary(uniqueKeysWithValues: documents.map { ($0.rowid, $0.post) })
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
        for (name, queries) in try QueryClasses(corpus: corpus).classes {
            let reference = try Self.latency(samples, queries) { query in
                _ = try fts5.search(query)
            }
            var (exact, scored) = (0, 0)
            // A phrase's posts are read to count it: here from the corpus in memory, not from SQLite.
            let texts = { (rowid: Int64) in posts[rowid].map { (title: $0.title, content: $0.content) } }
            let impact = try Self.latency(samples, queries) { query in
                guard let found = try ranker.rank(query, keep: 10, texts: texts) else { return }
                if found.totalIsExact { exact += 1 }
                scored += found.scored
            }
            rows.append(
                "| \(name) | \(Self.format(reference)) | \(Self.format(impact)) | \(exact * 100 / (samples + 20))% | \(scored / (samples + 20)) |")
        }
        return rows.joined(separator: "\n")
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
