/// The message a connection is receiving: `prefix` first, then its frames,
/// and how many went past the limit (counted, not kept). One struct, so
/// that a frame costs the decoder one access to it, not six.
struct IncomingMessage {
    private(set) var frames: [Frame] = []
    private var excess = 0
    /// Bytes of its frames so far, those past the limit included.
    private(set) var bytes = 0

    /// Whether frames of a message that has not ended arrived.
    private(set) var hasBegun = false

    /// Adds a frame (copied only when within the limit). After the last
    /// one (`more` false), returns how many frames the message had past
    /// `prefix` and whether they were too many; `frames` then holds the
    /// message until `reset()`.
    mutating func add(_ body: UnsafeRawBufferPointer, more: Bool, prefix: Frame?, limits: ZMTP.Limits) -> (count: Int, tooMany: Bool)? {
        if frames.isEmpty, let prefix { frames.append(prefix) }
        let first = prefix == nil ? 0 : 1
        bytes += body.count
        if frames.count - first < limits.maxFrames {
            frames.append(Frame(body, sharing: limits.sharedFrames))
        } else {
            excess += 1
        }
        hasBegun = more
        guard !more else { return nil }
        return (frames.count - first + excess, excess > 0)
    }

    /// Ready for the next message, keeping the room.
    mutating func reset() {
        frames.removeAll(keepingCapacity: true)
        excess = 0
        bytes = 0
    }
}
