/// What waits to be written to one peer: appended at the end, written from
/// the front. Written bytes are let go as the writing goes, not once all of
/// it is written: a peer that reads steadily while it keeps asking for more
/// would otherwise hold every byte ever sent to it. So the memory held is
/// at most about twice what waits, and what waits has a bound
/// (`ZMTP.Limits.maxOutput`, past which the peer is no longer read).
struct OutputBuffer {
    private var storage: [UInt8] = []
    /// Where the bytes not yet written begin in `storage`.
    private var start = 0

    /// Written bytes are moved out once at least this many of them lead
    /// the storage and they are at least half of it: the move then costs no
    /// more than the writes that made room for it.
    static let compactAfter = 1 << 16
    /// Storage larger than this is freed once all is written, so a peer
    /// that was sent one large message does not keep its room.
    static let keptCapacity = 1 << 18

    /// Bytes not yet written.
    var count: Int { storage.count - start }
    var isEmpty: Bool { start == storage.count }
    /// Bytes held, written ones not yet let go included.
    var capacity: Int { storage.capacity }

    /// Appends through the encoder, which writes into a byte array.
    mutating func append(_ body: (inout [UInt8]) -> Void) { body(&storage) }

    mutating func append(contentsOf bytes: [UInt8]) { storage.append(contentsOf: bytes) }

    /// The bytes not yet written, for a write.
    func withUnwritten<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        storage.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[start...])) }
    }

    /// Notes that the first `written` bytes waiting were written.
    mutating func removeFirst(_ written: Int) {
        start += written
        if start == storage.count {
            if storage.capacity > Self.keptCapacity { storage = [] } else { storage.removeAll(keepingCapacity: true) }
            start = 0
        } else if start >= Self.compactAfter, start * 2 >= storage.count {
            storage.removeSubrange(0..<start)
            start = 0
        }
    }

    mutating func removeAll() {
        storage = []
        start = 0
    }
}
