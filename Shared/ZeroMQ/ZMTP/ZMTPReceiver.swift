/// What a `ZMTPConnection` read: the peer's READY, whole messages, and
/// anything that made it close the connection.
protocol ZMTPReceiver: AnyObject {
    /// The peer's READY metadata: whether it is let in, and the prefix its
    /// messages are delivered with.
    func ready(_ connection: ZMTPConnection, metadata: UnsafeRawBufferPointer) -> ZMTPSession.Admission
    /// Whether a CURVE client with this long-term public key is let in
    /// (asked of a CURVE server only, before its metadata is).
    func admits(_ connection: ZMTPConnection, clientKey: [UInt8]) -> Bool
    /// A whole message: the connection's prefix (if any), then its frames.
    func message(_ connection: ZMTPConnection, _ frames: [Frame])
    /// Something the peer did wrong, worth a log line: the connection is
    /// closed after it, except for a message of too many frames, which
    /// alone is dropped.
    func report(_ connection: ZMTPConnection, _ problem: PeerProblem)
    /// The connection closed (after `report`, if the peer was at fault).
    func closed(_ connection: ZMTPConnection)
}
