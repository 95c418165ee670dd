import ArgumentParser
import Domain
import Foundation

/// `posts top`: each method's traffic, looked at every --interval.
struct TopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "top",
        abstract: "Live request rates, errors and latency per service and method.",
        discussion: """
            Every --interval it asks each worker process, through the gateway, for its \
            counts per method (`rpc.stats`), and prints each method's requests and errors \
            per second since the last look, and the p50 and p99 of its last 1,024 requests \
            (the slowest process's). The first look shows the totals so far. Runs until \
            interrupted, or --count looks. The same figures are served to Prometheus with \
            --metrics (docs/OPERATIONS.md).
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @Option(help: ArgumentHelp("Seconds between looks.", valueName: "seconds"))
    var interval: Double = 1

    @Option(help: ArgumentHelp("Looks to print, then exit (default: until interrupted).", valueName: "count"))
    var count: Int?

    func validate() throws {
        guard (0.1...3600).contains(interval) else { throw ValidationError("--interval must be from 0.1 to 3600 seconds, not \(interval)") }
        if let count, count < 1 { throw ValidationError("--count must be at least 1, not \(count)") }
    }

    func run() async throws {
        try await Failure.guarded {
            let status = try connection.provider().makeStatusUseCase()
            let redraw = Terminal.isInteractive
            var previous: (methods: [MethodTraffic], at: ContinuousClock.Instant)?
            var looks = 0
            while true {
                let now = ContinuousClock.now
                let current = try await status.status()
                let rows = TrafficRow.rows(current.methods, since: previous.map { ($0.methods, $0.at.duration(to: now)) })
                if connection.json {
                    Output.json(rows)
                } else {
                    if redraw { print("\u{1B}[H\u{1B}[2J", terminator: "") }
                    print("\(current.source)  every \(interval) s" + (previous == nil ? "  (first look: totals so far)" : ""))
                    Output.table(
                        [
                            "SERVICE", "METHOD", previous == nil ? "REQUESTS" : "REQ/S", previous == nil ? "ERRORS" : "ERR/S",
                            "P50 MS", "P99 MS",
                        ], rows.map(\.cells))
                    if rows.isEmpty { print("No method has a worker that counts it. Start them with `make run`.") }
                }
                previous = (current.methods, now)
                looks += 1
                if let count, looks >= count { return }
                try await Task.sleep(for: .milliseconds(Int(interval * 1000)))
            }
        }
    }
}
