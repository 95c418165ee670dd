#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// The bytes of a connection's greeting or frame received so far, when a
/// read ended inside one. Holds no memory when empty, which is the usual
/// case between messages. A large frame is read straight in here, into
/// room reserved for all of it, so its bytes are copied once.
struct PartialInput {
    private var base: UnsafeMutableRawPointer?
    private var capacity = 0
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// Makes room for `total` bytes in all.
    mutating func reserve(_ total: Int) {
        guard total > capacity else { return }
        guard let grown = realloc(base, total) else {
            // Only fails when memory is exhausted; nothing sensible is left to do.
            preconditionFailure("realloc(\(total)) failed: out of memory")
        }
        base = grown
        capacity = total
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        reserve(count + bytes.count)
        if let source = bytes.baseAddress, bytes.count > 0 { (base! + count).copyMemory(from: source, byteCount: bytes.count) }
        count += bytes.count
    }

    /// Reads at most `limit` bytes from `descriptor` onto the end: recv's result.
    mutating func receive(from descriptor: Int32, atMost limit: Int) -> Int {
        reserve(count + limit)
        let received = recv(descriptor, base! + count, limit, 0)
        if received > 0 { count += received }
        return received
    }

    /// Drops the first `used` bytes; frees the memory once nothing is left.
    mutating func removeFirst(_ used: Int) {
        if used >= count {
            release()
        } else if used > 0 {
            memmove(base!, base! + used, count - used)
            count -= used
        }
    }

    mutating func release() {
        free(base)
        base = nil
        capacity = 0
        count = 0
    }
}
