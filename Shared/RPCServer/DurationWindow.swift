import Domain
import Synchronization
import Wire

/// The last `capacity` durations of a method, for its p50 and p99 in
/// `rpc.stats`: bounded memory, and percentiles of what is recent.
final class DurationWindow: Sendable {
    static let capacity = 1024
    private let state = Mutex<(samples: [Duration], next: Int)>(([], 0))

    func record(_ duration: Duration) {
        state.withLock { state in
            if state.samples.count < Self.capacity {
                state.samples.append(duration)
            } else {
                state.samples[state.next] = duration
            }
            state.next = (state.next + 1) % Self.capacity
        }
    }

    /// The 50th and 99th percentiles in milliseconds, nil when empty.
    func percentiles() -> (p50: Double, p99: Double)? {
        let sorted = state.withLock { $0.samples }.sorted()
        guard !sorted.isEmpty else { return nil }
        func at(_ fraction: Double) -> Double {
            let value = sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
            return Double(value.components.seconds) * 1000 + Double(value.components.attoseconds) / 1e15
        }
        return (at(0.5), at(0.99))
    }
}
