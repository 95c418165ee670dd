/// A text's words, folded as the index takes them, end to end in one
/// buffer: what `ImpactTokenizer.packedWords(in:)` finds for a post being
/// indexed, with no String made for each word (the vocabulary looks a
/// word up by its bytes, `WordBytesTable`).
///
/// Bound: room for the text's bytes, and 4 bytes for every 3 of them
/// (room for as many word ends), or as much as the words take when more.
public struct PackedWords: Sendable {
    private(set) var bytes: [UInt8] = []
    /// Where each word ends in `bytes`; the next begins there.
    private(set) var ends: [Int32] = []

    init() {}

    /// Words cut from a text of `count` bytes by `cut`, which hands each
    /// one (as its bytes) to the closure it is given. Written in place in
    /// room for the text's bytes and a word for every 3 of them (most
    /// words, with what parts them, are longer), which a text's words fit
    /// in as a rule; a text of shorter words, or a word folded longer than
    /// it was (a few letters' lower case is, in UTF-8), has them cut
    /// again, each appended.
    init(fromTextOf count: Int, _ cut: ((UnsafeBufferPointer<UInt8>) throws -> Void) throws -> Void) throws {
        do {
            (bytes, ends) = try Self.inPlace(count, cut)
        } catch is Overflow {
            var (bytes, ends) = ([UInt8](), [Int32]())
            try cut { word in
                for byte in word { bytes.append(ImpactTokenizer.folded(byte)) }
                ends.append(Int32(bytes.count))
            }
            (self.bytes, self.ends) = (bytes, ends)
        }
    }

    private struct Overflow: Error {}

    private static func inPlace(
        _ count: Int, _ cut: ((UnsafeBufferPointer<UInt8>) throws -> Void) throws -> Void
    ) throws -> (bytes: [UInt8], ends: [Int32]) {
        var ends: [Int32] = []
        let bytes = try [UInt8](unsafeUninitializedCapacity: count) { bytes, written in
            ends = try [Int32](unsafeUninitializedCapacity: count / 3 + 1) { ends, found in
                try cut { word in
                    guard written + word.count <= bytes.count, found < ends.count else { throw Overflow() }
                    for byte in word {
                        bytes[written] = ImpactTokenizer.folded(byte)
                        written += 1
                    }
                    ends[found] = Int32(written)
                    found += 1
                }
            }
        }
        return (bytes, ends)
    }

    var count: Int { ends.count }

    /// The bytes it holds room for.
    var memory: Int { bytes.capacity + ends.capacity * 4 }

    /// `body` with each word's bytes, in order.
    func forEach(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        try bytes.withUnsafeBufferPointer { all in
            var start = 0
            for end in ends {
                try body(UnsafeBufferPointer(rebasing: all[start..<Int(end)]))
                start = Int(end)
            }
        }
    }
}
