/// The most recent latencies of one service, in a fixed-size ring.
struct LatencyWindow {
    static let capacity = 1024
    private(set) var samples: [Int64] = []
    private var next = 0

    mutating func record(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        if samples.count < Self.capacity {
            samples.append(nanoseconds)
        } else {
            samples[next] = nanoseconds
            next = (next + 1) % Self.capacity
        }
    }
}
