import Glibc

/// A phrase's stems as `DocumentStems` packs a document's: each stem's
/// varint, one after another. A varint's last byte is below 0x80 and its
/// others are not, so a phrase lies in a document's stems exactly where
/// these bytes lie in its packed bytes and begin a varint (at the start,
/// or after a byte below 0x80): found there with `memchr` and `memcmp`,
/// nothing decoded (`DocumentStems.count(of:in:)`).
struct PackedPhrase: Sendable {
    let stems: [Int32]
    let bytes: [UInt8]

    init(_ stems: [Int32]) {
        self.stems = stems
        var bytes: [UInt8] = []
        for stem in stems {
            var number = UInt32(bitPattern: stem)
            while number >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: number) | 0x80)
                number >>= 7
            }
            bytes.append(UInt8(number))
        }
        self.bytes = bytes
    }

    /// Whether its last stem is 0, whose varint is a zero byte, as the
    /// padding after a document's last stem is: a match that ends in that
    /// padding is no match, which only the document's counts tell.
    var endsInZero: Bool { bytes.last == 0 }

    /// How often it lies in `packed` (whole varints, overlapping ones
    /// each, as FTS5 counts), and where the last one found ends.
    func occurrences(in packed: UnsafeRawBufferPointer) -> (count: Int, lastEnd: Int) {
        bytes.withUnsafeBytes { needle in
            guard let first = needle.first, needle.count <= packed.count, let base = packed.baseAddress, let rest = needle.baseAddress
            else { return (0, 0) }
            var (found, lastEnd, from) = (0, 0, 0)
            let lastStart = packed.count - needle.count
            while from <= lastStart, let hit = memchr(base + from, Int32(first), lastStart - from + 1) {
                let at = base.distance(to: UnsafeRawPointer(hit))
                if at == 0 || packed[at - 1] < 0x80, memcmp(base + at + 1, rest + 1, needle.count - 1) == 0 {
                    found += 1
                    lastEnd = at + needle.count
                }
                from = at + 1
            }
            return (found, lastEnd)
        }
    }
}
