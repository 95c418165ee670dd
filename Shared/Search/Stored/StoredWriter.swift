import CZstd

#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Writes the ranking's postings to a file (`StoredPostings`), a megabyte
/// at a time, so saving a million posts' postings never holds them twice:
/// unsigned numbers as LEB128 varints (7 bits a byte, the high bit set on
/// every byte but the last), doubles as their 8 bytes little-endian,
/// strings as their UTF-8 length and bytes. What follows
/// `startCompressing` is one zstd frame (level 1, with its checksum),
/// after the length of what it holds and its own, which `endCompressing`
/// fills in; what follows that is written as it is (the columns, read in
/// place).
struct StoredWriter: ~Copyable {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// Bytes handed to the file so far, as written (before compression),
    /// and bytes not yet.
    private(set) var written = 0
    var pending: Int { buffer.count }
    /// Bytes the file holds so far.
    private(set) var fileBytes = 0
    static let chunk = 1 << 20
    /// zstd's level: at a million posts, 85 MB of postings took 48 MB, in
    /// 0.2 s (level 3: 47.8 MB in 0.26 s).
    static let level: Int32 = 1

    private var compression: OpaquePointer?
    private var compressed = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    /// Where the lengths of the compressed part go, and where it starts
    /// (in `written`, and in the file).
    private var lengthAt = 0
    private var compressedFrom = 0
    private var compressedFileFrom = 0

    /// Creates `path` (owner-only; it must not exist).
    init(creating path: String) throws(StoredPostingsError) {
        descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .cannotWrite(path, String(cString: strerror(errno))) }
        buffer.reserveCapacity(Self.chunk + 64)
    }

    deinit {
        close(descriptor)
        if let compression { ZSTD_freeCCtx(compression) }
        compressed.deallocate()
    }

    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            buffer.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        buffer.append(UInt8(value))
        if buffer.count >= Self.chunk { flushQuietly() }
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

    mutating func doubles(_ values: ContiguousArray<Double>) {
        varint(values.count)
        for value in values { double(value) }
    }

    /// Values as they are in memory (little-endian), to be read in place:
    /// a large column goes to the file straight from where it is.
    mutating func column(_ values: UnsafeBufferPointer<UInt32>) {
        precondition(compression == nil, "columns are written after the compressed part")
        let bytes = UnsafeRawBufferPointer(values)
        if buffer.count + bytes.count <= Self.chunk {
            buffer.append(contentsOf: bytes)
        } else {
            flushQuietly()
            send(bytes)
            written += bytes.count
        }
    }

    /// Zeros up to the next multiple of `alignment` in the file.
    mutating func align(to alignment: Int) {
        precondition(compression == nil, "alignment is of the file's bytes")
        let at = fileBytes + buffer.count
        buffer.append(contentsOf: repeatElement(0, count: (alignment - at % alignment) % alignment))
    }

    /// Where the next byte goes in the file (once compression has ended).
    var fileOffset: Int { fileBytes + buffer.count }

    /// From here on, what is written is compressed: 8 bytes for its
    /// length first, then 8 for the frame's (little-endian, filled in by
    /// `endCompressing`), then the frame.
    mutating func startCompressing() {
        lengthAt = written + buffer.count
        buffer.append(contentsOf: repeatElement(0, count: 16))
        flushQuietly()
        compressedFrom = written
        compressedFileFrom = fileBytes
        let context = ZSTD_createCCtx()
        ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, Self.level)
        ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1)
        compression = context
        compressed = .allocate(byteCount: ZSTD_CStreamOutSize(), alignment: 8)
    }

    /// A failed write is kept for `finish`, which reports it.
    private var failure: Int32 = 0
    private var failureReason: String?

    private mutating func flushQuietly(ending: Bool = false) {
        var pending: [UInt8] = []
        swap(&pending, &buffer)
        defer {
            written += pending.count
            pending.removeAll(keepingCapacity: true)
            swap(&pending, &buffer)
        }
        guard let compression else {
            pending.withUnsafeBytes { send($0) }
            return
        }
        pending.withUnsafeBytes { pending in
            var input = ZSTD_inBuffer(src: pending.baseAddress, size: pending.count, pos: 0)
            while failure == 0 && failureReason == nil {
                var out = ZSTD_outBuffer(dst: compressed.baseAddress, size: compressed.count, pos: 0)
                let left = ZSTD_compressStream2(compression, &out, &input, ending ? ZSTD_e_end : ZSTD_e_continue)
                guard ZSTD_isError(left) == 0 else {
                    failureReason = "zstd: " + String(cString: ZSTD_getErrorName(left))
                    break
                }
                send(UnsafeRawBufferPointer(rebasing: compressed[..<out.pos]))
                if ending ? left == 0 : input.pos == input.size { break }
            }
        }
    }

    private mutating func send(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count, failure == 0 {
            let sent = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if sent < 0 {
                if errno != EINTR { failure = errno }
            } else {
                offset += sent
            }
        }
        fileBytes += offset
    }

    /// Ends the compressed part and fills in its lengths; what is written
    /// next goes to the file as it is.
    mutating func endCompressing() {
        guard let context = compression else { return }
        flushQuietly(ending: true)
        if failure == 0, failureReason == nil {
            let lengths = [UInt64(written - compressedFrom).littleEndian, UInt64(fileBytes - compressedFileFrom).littleEndian]
            let put = lengths.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, 16, off_t(lengthAt)) }
            if put != 16 { failure = put < 0 ? errno : EIO }
        }
        ZSTD_freeCCtx(context)
        compression = nil
    }

    /// Writes what is left (ending the compressed part, if it has not
    /// ended) and makes it durable (fsync).
    mutating func finish(_ path: String) throws(StoredPostingsError) {
        endCompressing()
        flushQuietly()
        if let reason = failureReason { throw .cannotWrite(path, reason) }
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        guard failure == 0 else { throw .cannotWrite(path, String(cString: strerror(failure))) }
    }
}
