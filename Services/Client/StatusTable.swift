import Domain
import Foundation

/// The status as tables: one set of column names and cells, printed by
/// `posts status` and drawn by the interface's status screen. A width is
/// the column's size; negative means right-aligned (numbers).
struct StatusTable {
    var columns: [(title: String, width: Int)]
    var rows: [[String]]

    static func tables(for status: SystemStatus) -> [StatusTable] {
        var tables: [StatusTable] = []
        if status.gateways.count > 1 {
            tables.append(
                StatusTable(
                    columns: [("GATEWAY", 44), ("STATE", 6), ("IN USE", 6), ("UP S", -8)],
                    rows: status.gateways.map {
                        [
                            $0.endpoint, $0.up ? "up" : "down", $0.inUse ? "yes" : "", $0.uptimeSeconds.map { String(format: "%.0f", $0) } ?? "-",
                        ]
                    }))
        }
        if !status.services.isEmpty {
            tables.append(
                StatusTable(
                    columns: [
                        ("SERVICE", 12), ("PROCESSES", -9), ("SESSIONS", -8), ("QUEUED", -6), ("REQUESTS", -9), ("REFUSED", -7),
                        ("P50 MS", -7), ("P99 MS", -7),
                    ],
                    rows: status.services.map {
                        [
                            $0.name, "\($0.processes)", "\($0.sessions)", "\($0.queued)", "\($0.requests)", "\($0.refused)",
                            milliseconds($0.p50Milliseconds), milliseconds($0.p99Milliseconds),
                        ]
                    }))
        }
        if !status.processes.isEmpty {
            // How many gateways each process serves, when any serves several.
            let several = status.processes.contains { $0.gateways != nil }
            tables.append(
                StatusTable(
                    columns: [("PROCESS", 20), ("SERVICE", 9), ("SESSIONS", -8), ("BUSY", -4), ("HANDLED", -8), ("HEARD MS AGO", -12)]
                        + (several ? [("GATEWAYS", -8)] : []),
                    rows: status.processes.map {
                        [
                            $0.pid.map { "pid \($0)" } ?? $0.name, $0.service, "\($0.sessions)", "\($0.busy)", "\($0.handled)",
                            String(format: "%.0f", $0.silentMilliseconds),
                        ] + (several ? ["\($0.gateways?.count ?? 1)"] : [])
                    }))
        }
        if !status.searchIndexes.isEmpty {
            tables.append(
                StatusTable(
                    columns: [("SEARCH PROCESS", 14), ("DOCUMENTS", -9), ("APPLIED", -8), ("HEAD", -8), ("LAG", -5)],
                    rows: status.searchIndexes.map { ["pid \($0.pid)", "\($0.documents)", "\($0.applied)", "\($0.head)", "\($0.lag)"] }))
        }
        return tables
    }

    /// The lines above the tables.
    static func summary(for status: SystemStatus) -> [String] {
        var lines = ["Source: \(status.source)" + (status.uptimeSeconds.map { String(format: " (up %.0f s)", $0) } ?? "")]
        if let posts = status.posts { lines.append("Posts: \(posts)") }
        return lines
    }

    private static func milliseconds(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "-" }
}
