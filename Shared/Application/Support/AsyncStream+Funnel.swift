/// Several input streams as one, in arrival order: a view model handles its
/// actions one at a time, so its state changes in a clear order.
func funnel<Action: Sendable>(_ streams: [AsyncStream<Action>]) -> AsyncStream<Action> {
    AsyncStream { continuation in
        let task = Task {
            await withTaskGroup(of: Void.self) { group in
                for stream in streams {
                    group.addTask { for await action in stream { continuation.yield(action) } }
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
    }
}

extension AsyncStream where Element: Sendable {
    /// Each element of `stream`, as `transform` makes it.
    static func mapping<Source: Sendable>(_ stream: AsyncStream<Source>, _ transform: @escaping @Sendable (Source) -> Element) -> AsyncStream<Element> {
        AsyncStream { continuation in
            let task = Task {
                for await element in stream { continuation.yield(transform(element)) }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Runs `body` with a way to publish states, until the stream is no
    /// longer read (then the work is cancelled).
    static func running(_ body: @escaping @Sendable (Continuation) async -> Void) -> AsyncStream<Element> {
        AsyncStream { continuation in
            let task = Task {
                await body(continuation)
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
