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

/// One line of `posts top`: a method's traffic since the last look (or
/// in all, on the first).
struct TrafficRow: Encodable, Equatable {
    let service: String
    let method: String
    /// Per second since the last look; the totals so far on the first.
    let requests: Double
    let errors: Double
    let p50Milliseconds: Double?
    let p99Milliseconds: Double?

    static func rows(_ methods: [MethodTraffic], since previous: (methods: [MethodTraffic], elapsed: Duration)?) -> [TrafficRow] {
        let before = Dictionary((previous?.methods ?? []).map { ("\($0.service) \($0.method)", $0) }) { first, _ in first }
        let seconds = previous.map { Double($0.elapsed.components.seconds) + Double($0.elapsed.components.attoseconds) / 1e18 }
        return methods.map { method in
            let earlier = before["\(method.service) \(method.method)"]
            // A process that restarted counts from zero again: never a negative rate.
            func rate(_ now: Int, _ then: Int?) -> Double {
                guard let seconds, seconds > 0 else { return Double(now) }
                return Double(max(0, now - (then ?? 0))) / seconds
            }
            return TrafficRow(
                service: method.service, method: method.method, requests: rate(method.requests, earlier?.requests),
                errors: rate(method.errors, earlier?.errors), p50Milliseconds: method.p50Milliseconds,
                p99Milliseconds: method.p99Milliseconds)
        }
    }

    var cells: [String] {
        func number(_ value: Double) -> String { value == value.rounded() ? String(format: "%.0f", value) : String(format: "%.1f", value) }
        func milliseconds(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "-" }
        return [service, method, number(requests), number(errors), milliseconds(p50Milliseconds), milliseconds(p99Milliseconds)]
    }
}
