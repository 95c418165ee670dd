/// Notices changes by asking for the head sequence every `interval`, and
/// tells of each new one. Any platform can use it; it needs no events.
public struct PollingWatch: PostsWatchUseCase {
    let feed: any ChangeFeed
    let interval: Duration

    public init(feed: any ChangeFeed, interval: Duration) {
        (self.feed, self.interval) = (feed, interval)
    }

    public func changes() -> AsyncStream<Int64> {
        let (feed, interval) = (self.feed, self.interval)
        return AsyncStream { continuation in
            let task = Task {
                var last = try? await feed.head()
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    // An unanswered ask is no news; the next one may answer.
                    guard let head = try? await feed.head(), head != last else { continue }
                    last = head
                    continuation.yield(head)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
