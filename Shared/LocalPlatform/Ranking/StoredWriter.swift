#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Writes the ranking's postings to a file (`StoredPostings`), a megabyte
/// at a time, so saving a million posts' postings never holds them twice:
/// unsigned numbers as LEB128 varints (7 bits a byte, the high bit set on
/// every byte but the last), doubles as their 8 bytes little-endian,
/// strings as their UTF-8 length and bytes.
struct StoredWriter: ~Copyable {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// Bytes handed to the file so far, and bytes not yet.
    private(set) var written = 0
    var pending: Int { buffer.count }
    static let chunk = 1 << 20

    /// Creates `path` (owner-only; it must not exist).
    init(creating path: String) throws(StoredPostingsError) {
        descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .cannotWrite(path, String(cString: strerror(errno))) }
        buffer.reserveCapacity(Self.chunk + 64)
    }

    deinit { close(descriptor) }

    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            buffer.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        buffer.append(UInt8(value))
        if buffer.count >= Self.chunk { try? flushQuietly() }
    }

    mutating func varint(_ value: Int) { varint(UInt64(value)) }

    mutating func double(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { buffer.append(contentsOf: $0) }
    }

    mutating func string(_ value: String) {
        let bytes = Array(value.utf8)
        varint(bytes.count)
        buffer.append(contentsOf: bytes)
    }

    mutating func bytes(_ value: some Sequence<UInt8>) { buffer.append(contentsOf: value) }

    /// Rowids in ascending order, each as its distance from the one before.
    mutating func ascending(_ values: ContiguousArray<UInt32>) {
        varint(values.count)
        var previous: UInt32 = 0
        for value in values {
            varint(UInt64(value - previous))
            previous = value
        }
    }

    mutating func unsigned(_ values: ContiguousArray<UInt32>) {
        varint(values.count)
        for value in values { varint(UInt64(value)) }
    }

    mutating func doubles(_ values: ContiguousArray<Double>) {
        varint(values.count)
        for value in values { double(value) }
    }

    /// A failed write is kept for `finish`, which reports it.
    private var failure: Int32 = 0

    private mutating func flushQuietly() throws {
        var offset = 0
        while offset < buffer.count, failure == 0 {
            let sent = buffer.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if sent < 0 {
                if errno != EINTR { failure = errno }
            } else {
                offset += sent
            }
        }
        written += offset
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is left and makes it durable (fsync).
    mutating func finish(_ path: String) throws(StoredPostingsError) {
        try? flushQuietly()
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        guard failure == 0 else { throw .cannotWrite(path, String(cString: strerror(failure))) }
    }
}
