/// Notices changes by asking for the head sequence every `interval`, and
/// tells of each new one. Any platform can use it; it needs no events.
public struct PollingWatch: PostsWatchUseCase {
    let source: any PostChangesUseCase
    let interval: Duration

    public init(changes: any PostChangesUseCase, interval: Duration) {
        (self.source, self.interval) = (changes, interval)
    }

    public func changes() -> AsyncStream<Int64> {
        let (changes, interval) = (self.source, self.interval)
        return AsyncStream { continuation in
            let task = Task {
                var last = try? await changes.head()
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    // An unanswered ask is no news; the next one may answer.
                    guard let head = try? await changes.head(), head != last else { continue }
                    last = head
                    continuation.yield(head)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
