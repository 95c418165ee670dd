import Domain
import Foundation
import Logging
import Tracing
import Wire

/// What every request may say about how it is served: its time budget
/// (`Request-Timeout`, seconds; the server's default otherwise, and never
/// more) and the trace it continues (`traceparent`). Calls made while it
/// is served carry both on to the gateway and every service:
/// `RPCDeadline` and the span's context (`GatewayConnection` reads them).
struct Exchange {
    /// The longest a request may ask for, and the shortest.
    static let budgets: ClosedRange<Double> = 0.01...3600

    let operation: String
    let budget: Duration
    let traceparent: String?

    init(_ operation: String, timeout: String?, traceparent: String?, fallback: Duration) throws(Problem) {
        self.operation = operation
        self.traceparent = traceparent
        guard let timeout else {
            budget = fallback
            return
        }
        guard let seconds = Double(timeout.trimmingCharacters(in: .whitespaces)), seconds.isFinite, Self.budgets.contains(seconds) else {
            throw Problem.invalid(
                "Request-Timeout",
                "Request-Timeout must be seconds from \(Self.budgets.lowerBound) to \(Int(Self.budgets.upperBound)) (got '\(timeout)')")
        }
        budget = min(fallback, .milliseconds(Int64((seconds * 1000).rounded())))
    }

    /// Runs `work` within the budget, in a server span that continues the
    /// caller's trace.
    func run<T: Sendable>(_ work: () async throws -> T) async throws -> T {
        var context = ServiceContext.topLevel
        if let traceparent {
            InstrumentationSystem.instrument.extract(["traceparent": traceparent], into: &context, using: HeaderExtractor())
        }
        let deadline = ContinuousClock.now + budget
        return try await InstrumentationSystem.tracer.withSpan(operation, context: context, ofKind: .server) { span in
            span.attributes["http.route"] = operation
            return try await RPCDeadline.$current.withValue(deadline) { try await work() }
        }
    }
}

/// Reads trace headers from a request's.
private struct HeaderExtractor: Extractor {
    func extract(key: String, from carrier: [String: String]) -> String? { carrier[key] }
}
