#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// The bytes of a connection's greeting or frame received so far, when a
/// read ended inside one. Holds no memory when empty, which is the usual
/// case between messages. A large frame is read straight in here
/// (`room`, then `grow`), so its bytes are copied once; the room grows with
/// the bytes that came, so a header that announces a large frame holds no
/// memory by itself.
struct PartialInput {
    private var base: UnsafeMutableRawPointer?
    private var capacity = 0
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Valid until the next change.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// Makes room for `total` bytes in all.
    private mutating func reserve(_ total: Int) {
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

    /// `size` bytes of room after what is held, to read into; `grow` then
    /// says how many were filled.
    mutating func room(_ size: Int) -> UnsafeMutableRawBufferPointer {
        reserve(count + size)
        return UnsafeMutableRawBufferPointer(start: base! + count, count: size)
    }

    mutating func grow(by filled: Int) { count += filled }

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
