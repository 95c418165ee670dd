/// Reads what `StoredWriter` wrote, from a file's bytes (a memory map),
/// checking every length against what is left: a cut or damaged file
/// throws, never reads past its end.
struct StoredReader: ~Copyable {
    private let bytes: UnsafeRawBufferPointer
    private(set) var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func varint() throws(StoredPostingsError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count, shift < 64 {
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        throw .damaged("a number runs past the end at byte \(offset)")
    }

    /// A count or length: at most `limit` (what the rest of the file could hold).
    mutating func count(atMost limit: Int? = nil) throws(StoredPostingsError) -> Int {
        let value = try varint()
        let limit = limit ?? (bytes.count - offset)
        guard limit >= 0, value <= UInt64(limit) else { throw .damaged("a count of \(value) at byte \(offset) is out of bounds") }
        return Int(value)
    }

    mutating func double() throws(StoredPostingsError) -> Double {
        guard bytes.count - offset >= 8 else { throw .damaged("a number runs past the end at byte \(offset)") }
        let bits = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        offset += 8
        return Double(bitPattern: UInt64(littleEndian: bits))
    }

    mutating func string() throws(StoredPostingsError) -> String {
        let length = try count()
        defer { offset += length }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)]), as: UTF8.self)
    }

    mutating func bytes(_ count: Int) throws(StoredPostingsError) -> [UInt8] {
        guard bytes.count - offset >= count else { throw .damaged("\(count) bytes asked for at byte \(offset), past the end") }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }

    /// Rowids written as gaps (`StoredWriter.ascending`).
    mutating func ascending() throws(StoredPostingsError) -> ContiguousArray<UInt32> {
        try unsignedArray(summed: true)
    }

    mutating func unsigned() throws(StoredPostingsError) -> ContiguousArray<UInt32> {
        try unsignedArray(summed: false)
    }

    mutating func doubles() throws(StoredPostingsError) -> ContiguousArray<Double> {
        let count = try count(atMost: (bytes.count - offset) / 8)
        var values = ContiguousArray<Double>()
        values.reserveCapacity(count)
        for _ in 0..<count { values.append(try double()) }
        return values
    }

    /// Each number is at least one byte: a count is never more than the
    /// bytes left. `summed`: each is the gap from the one before.
    private mutating func unsignedArray(summed: Bool) throws(StoredPostingsError) -> ContiguousArray<UInt32> {
        let count = try count()
        var values = ContiguousArray<UInt32>()
        values.reserveCapacity(count)
        var previous: UInt64 = 0
        for _ in 0..<count {
            let read = try varint()
            let value = read <= UInt64(UInt32.max) ? read + (summed ? previous : 0) : read
            guard value <= UInt64(UInt32.max) else { throw .damaged("a number past 2^32 at byte \(offset)") }
            values.append(UInt32(value))
            previous = value
        }
        return values
    }
}
