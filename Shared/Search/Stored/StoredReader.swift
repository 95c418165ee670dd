import CZstd

/// Reads what `StoredWriter` wrote after `startCompressing`, from the
/// file's bytes (a memory map), decompressing a megabyte at a time, so
/// taking up a million posts' postings never holds their whole file
/// decompressed. Every length is checked against what is left: a cut or
/// damaged file throws, never reads past its end (zstd checks the frame's
/// checksum at its end).
struct StoredReader: ~Copyable {
    private let input: UnsafeRawBufferPointer
    private var inputPosition = 0
    private let decompression: OpaquePointer
    private var frameEnded = false
    /// Decompressed bytes not all read yet: `window[position..<count]`.
    private var window: UnsafeMutableRawBufferPointer
    private var position = 0
    private var count = 0
    /// Where `window[0]` lies in what was written (the file's plain start included).
    private var windowStart: Int
    /// Where what was written ends, as the file says.
    private let end: Int
    static let chunk = 1 << 20
    /// The longest string or run of bytes read at once (a word, an id):
    /// the window never grows past a megabyte for a damaged length.
    static let longest = 1 << 16

    /// `compressed`: the frame; it holds `length` bytes, which come after
    /// `start` bytes written plain (so offsets count as the writer's do).
    init(compressed: UnsafeRawBufferPointer, length: Int, start: Int) {
        input = compressed
        decompression = ZSTD_createDCtx()
        window = .allocate(byteCount: Self.chunk, alignment: 8)
        windowStart = start
        end = start + length
    }

    deinit {
        ZSTD_freeDCtx(decompression)
        window.deallocate()
    }

    /// Bytes read so far, as the writer counted them.
    var offset: Int { windowStart + position }

    /// Whether every byte was read, and the frame ends right there, its
    /// checksum good (a mismatch throws), with nothing after it.
    mutating func atEnd() throws(StoredPostingsError) -> Bool {
        guard offset == end, count == position else { return false }
        (windowStart, position, count) = (windowStart + position, 0, 0)
        while !frameEnded {
            var out = ZSTD_outBuffer(dst: window.baseAddress!, size: window.count, pos: 0)
            var from = ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: inputPosition)
            let result = ZSTD_decompressStream(decompression, &out, &from)
            if ZSTD_isError(result) != 0 { throw .damaged("its postings do not decompress: \(String(cString: ZSTD_getErrorName(result)))") }
            inputPosition = from.pos
            if out.pos > 0 { return false }  // more than the file says it holds
            if result == 0 {
                frameEnded = true
            } else if from.pos == from.size {
                return false  // the file ends inside the frame
            }
        }
        return inputPosition == input.count
    }

    mutating func varint() throws(StoredPostingsError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while shift < 64, try available(1) {
            let byte = window[position]
            position += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        throw .damaged("a number runs past the end at byte \(offset)")
    }

    /// A count or length: at most `limit` (by default, the bytes left).
    mutating func count(atMost limit: Int? = nil) throws(StoredPostingsError) -> Int {
        let value = try varint()
        let limit = limit ?? (end - offset)
        guard limit >= 0, value <= UInt64(limit) else { throw .damaged("a count of \(value) at byte \(offset) is out of bounds") }
        return Int(value)
    }

    mutating func double() throws(StoredPostingsError) -> Double {
        guard try available(8) else { throw .damaged("a number runs past the end at byte \(offset)") }
        let bits = UnsafeRawBufferPointer(window).loadUnaligned(fromByteOffset: position, as: UInt64.self)
        position += 8
        return Double(bitPattern: UInt64(littleEndian: bits))
    }

    mutating func string() throws(StoredPostingsError) -> String {
        let length = try count(atMost: Self.longest)
        guard try available(length) else { throw .damaged("a string runs past the end at byte \(offset)") }
        defer { position += length }
        return String(decoding: UnsafeRawBufferPointer(rebasing: window[position..<(position + length)]), as: UTF8.self)
    }

    mutating func bytes(_ count: Int) throws(StoredPostingsError) -> [UInt8] {
        guard count <= Self.longest, end - offset >= count, try available(count) else {
            throw .damaged("\(count) bytes asked for at byte \(offset), past the end")
        }
        defer { position += count }
        return Array(window[position..<(position + count)])
    }

    mutating func doubles() throws(StoredPostingsError) -> ContiguousArray<Double> {
        let count = try count(atMost: (end - offset) / 8)
        var values = ContiguousArray<Double>()
        values.reserveCapacity(Swift.min(count, Self.chunk))
        for _ in 0..<count { values.append(try double()) }
        return values
    }

    /// Whether `needed` bytes can be read from `position` (decompressing
    /// more when the window holds fewer; never past `end`).
    @inline(__always)
    private mutating func available(_ needed: Int) throws(StoredPostingsError) -> Bool {
        if count - position >= needed { return true }
        return try refill(needed)
    }

    private mutating func refill(_ needed: Int) throws(StoredPostingsError) -> Bool {
        guard needed <= end - offset else { return false }
        // What is left to the front, then room for what is needed.
        let left = count - position
        if left > 0 { window.baseAddress!.copyMemory(from: window.baseAddress! + position, byteCount: left) }
        (windowStart, position, count) = (windowStart + position, 0, left)
        // Never more than `longest` at once, so the window always has room.
        precondition(needed <= window.count)
        while count < needed && !frameEnded {
            var out = ZSTD_outBuffer(dst: window.baseAddress! + count, size: window.count - count, pos: 0)
            var from = ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: inputPosition)
            let result = ZSTD_decompressStream(decompression, &out, &from)
            if ZSTD_isError(result) != 0 { throw .damaged("its postings do not decompress: \(String(cString: ZSTD_getErrorName(result)))") }
            inputPosition = from.pos
            count += out.pos
            if result == 0 {
                frameEnded = true
            } else if out.pos == 0 && from.pos == from.size {
                break  // the file ends inside the frame
            }
        }
        return count - position >= needed
    }
}
