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
    /// The most a server may allow a request (`--timeout`), and the least.
    static let budgets: ClosedRange<Double> = 0.01...3600

    let operation: String
    let budget: Duration
    let traceparent: String?

    init(_ operation: String, timeout: String?, traceparent: String?, fallback: Duration) throws(Problem) {
        self.operation = operation
        self.traceparent = traceparent
        guard let timeout = present(timeout) else {
            budget = fallback
            return
        }
        // A client may ask for less than the server allows, never more (a
        // larger one is cut to it); 0 is spent.
        budget = min(fallback, .milliseconds(Int64((min(try Self.seconds(timeout), Self.budgets.upperBound) * 1000).rounded())))
    }

    /// A `Request-Timeout` value: seconds as a decimal number (`2.5`).
    static func seconds(_ text: String) throws(Problem) -> Double {
        guard text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let seconds = Double(text), seconds.isFinite else {
            throw Problem.invalid("Request-Timeout", "Request-Timeout must be a number of seconds such as 2.5 (got '\(text)')")
        }
        return seconds
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

/// A header's or parameter's value, or nil when it says nothing (absent,
/// or empty): an empty `If-Match:` or `?cursor=` is as if left out.
func present(_ value: String?) -> String? {
    guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
    return value
}
