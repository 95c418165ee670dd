extension AsyncStream where Element: Sendable {
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
