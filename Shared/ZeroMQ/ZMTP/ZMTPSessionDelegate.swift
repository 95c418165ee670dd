/// What a `ZMTPSession` hands on: the peer's READY, whole messages, and
/// messages dropped for having too many frames.
protocol ZMTPSessionDelegate {
    /// The peer's READY metadata: whether it is let in, and under which
    /// prefix (a router's routing id for it) its messages are delivered.
    mutating func ready(metadata: UnsafeRawBufferPointer) -> ZMTPSession.Admission
    /// Whether a CURVE client with this long-term public key is let in
    /// (asked of a CURVE server only, before `ready`).
    mutating func admits(clientKey: [UInt8]) -> Bool
    /// A whole message: the prefix (if any), then its frames.
    mutating func message(_ frames: [Frame])
    /// A message dropped as it arrived; the connection stays.
    mutating func dropped(_ problem: PeerProblem)
}
