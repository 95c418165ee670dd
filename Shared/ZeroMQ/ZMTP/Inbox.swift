/// Messages read and not yet taken, in order: a read delivers every whole
/// message it completes at once, and the owner takes them one at a time.
struct Inbox {
    private var messages: [[Frame]] = []
    private var next = 0

    mutating func append(_ message: [Frame]) { messages.append(message) }

    /// The messages not yet taken, taken all at once.
    mutating func takeRemaining() -> [[Frame]] {
        defer {
            messages.removeAll(keepingCapacity: true)
            next = 0
        }
        return Array(messages[next...])
    }

    /// Starts again with `deferred`, which must be all it holds.
    mutating func refill(with deferred: [[Frame]]) {
        messages = deferred
        next = 0
    }

    /// The next message; nil once all are taken (the storage is then
    /// emptied, its capacity kept for the next read).
    mutating func take() -> [Frame]? {
        guard next < messages.count else {
            messages.removeAll(keepingCapacity: true)
            next = 0
            return nil
        }
        defer { next += 1 }
        return messages[next]
    }
}
