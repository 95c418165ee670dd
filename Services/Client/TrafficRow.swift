import ArgumentParser
import Domain
import Foundation

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
