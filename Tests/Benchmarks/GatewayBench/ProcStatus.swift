import Foundation

/// A process's memory as /proc/PID/status says it.
enum ProcStatus {
    /// `field` (VmRSS:, RssAnon:, …) of process `pid` ("self" for this one), in MB; 0 when unknown.
    static func megabytes(_ pid: String, field: String = "VmRSS:") -> Double {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix(field) } ?? ""
        return (Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) / 1024
    }
}
