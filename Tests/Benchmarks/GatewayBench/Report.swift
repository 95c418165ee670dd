import Foundation
import ZeroMQ

struct Row {
    let name: String
    let latency: Probe.Latency
    init(_ name: String, latency: Probe.Latency) throws {
        self.name = name
        self.latency = latency
    }
}

/// The results as Markdown, ready for docs/BENCHMARKS.md.
struct Report {
    let rows: [Row]
    let throughput: [(String, Double)]
    let settings: String

    var markdown: String {
        let baseline = rows[0].latency
        var lines = [
            "Settings: \(settings)",
            "",
            "| sequential round trip | p50 | p99 | p50 vs raw |",
            "|---|---|---|---|",
        ]
        for row in rows {
            let ratio = Self.micro(row.latency.p50) / Self.micro(baseline.p50)
            lines.append("| \(row.name) | \(Self.format(row.latency.p50)) | \(Self.format(row.latency.p99)) | \(String(format: "%.2f×", ratio)) |")
        }
        lines += ["", "| pipelined | requests/s | vs raw |", "|---|---|---|"]
        for (name, rate) in throughput {
            lines.append("| \(name) | \(Int(rate.rounded())) | \(String(format: "%.2f×", rate / throughput[0].1)) |")
        }
        return lines.joined(separator: "\n")
    }

    static func micro(_ duration: Duration) -> Double { Probe.seconds(duration) * 1e6 }
    static func format(_ duration: Duration) -> String { String(format: "%.1f µs", micro(duration)) }

    static var machine: String {
        let cpu =
            (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
        return "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(cpu), \(ProcessInfo.processInfo.physicalMemory >> 30) GiB"
    }
}
