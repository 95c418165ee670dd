#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Each word seen and its stem's number, found by the word's bytes (the
/// vocabulary's only map of words): the lookup indexing makes for every
/// word of every post (`ImpactTokenizer.stems(of:adding:)`),
/// without a String made for the word or Swift's SipHash over it. Those
/// were about a tenth of the instructions search-service spent on an
/// imported post (`callgrind.sh import-search`: Hasher, String's UTF-8
/// checks and comparisons).
///
/// Open addressing, at most half full. A slot holds a tag (the hash's top
/// 32 bits) and the entry's place; the words' bytes lie end to end in
/// `arena`. The hash is seeded at random per process, so no one can choose
/// posts whose words all land on one slot.
///
/// Bound: the words' bytes, and 24 bytes a word (16 of slots, at most
/// half full, 4 of offset, 4 of stem number): about 1.5 MB for the 60,000
/// words of a million posts.
struct WordBytesTable {
    /// 0: empty; else `tag << 32 | (entry + 1)`.
    private var slots = [UInt64](repeating: 0, count: 1024)
    /// Entry i's bytes are `arena[offsets[i]..<offsets[i + 1]]`.
    private var offsets: [UInt32] = [0]
    private var arena: [UInt8] = []
    private var stems: [Int32] = []

    private static let seed = UInt64.random(in: .min ... .max)

    var count: Int { stems.count }

    /// The stem number recorded for `word`, if any.
    func stem(of word: UnsafeBufferPointer<UInt8>) -> Int32? { entry(of: word, hash: Self.hash(word)).map { stems[$0] } }

    /// Records `word`'s stem number; a word already recorded is left as it
    /// is. Answers whether it was new.
    @discardableResult
    mutating func insert(_ word: UnsafeBufferPointer<UInt8>, stem: Int32) -> Bool {
        let hash = Self.hash(word)
        guard entry(of: word, hash: hash) == nil else { return false }
        if (stems.count + 1) * 2 > slots.count { grow() }
        arena.append(contentsOf: word)
        offsets.append(UInt32(arena.count))
        stems.append(stem)
        place(stems.count - 1, hash: hash)
        return true
    }

    /// `body` with each word recorded, as its bytes, and its stem number,
    /// in the order they were recorded.
    func forEach(_ body: (UnsafeBufferPointer<UInt8>, Int32) throws -> Void) rethrows {
        for entry in stems.indices { try withBytes(of: entry) { try body($0, stems[entry]) } }
    }

    private func entry(of word: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int? {
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        while true {
            let slot = slots[index]
            if slot == 0 { return nil }
            let entry = Int(truncatingIfNeeded: slot & 0xFFFF_FFFF) - 1
            if slot >> 32 == hash >> 32, holds(entry, word) { return entry }
            index = (index + 1) & mask
        }
    }

    private mutating func place(_ entry: Int, hash: UInt64) {
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        while slots[index] != 0 { index = (index + 1) & mask }
        slots[index] = (hash >> 32) << 32 | UInt64(entry + 1)
    }

    private mutating func grow() {
        slots = [UInt64](repeating: 0, count: slots.count * 2)
        for entry in stems.indices { place(entry, hash: withBytes(of: entry, Self.hash)) }
    }

    private func withBytes<T>(of entry: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        try arena.withUnsafeBufferPointer { arena in try body(UnsafeBufferPointer(rebasing: arena[Int(offsets[entry])..<Int(offsets[entry + 1])])) }
    }

    private func holds(_ entry: Int, _ word: UnsafeBufferPointer<UInt8>) -> Bool {
        guard Int(offsets[entry + 1] - offsets[entry]) == word.count else { return false }
        guard let wordBytes = word.baseAddress else { return true }
        return withBytes(of: entry) { memcmp($0.baseAddress!, wordBytes, word.count) == 0 }
    }

    /// Eight bytes at a time, each step mixed by splitmix64's finalizer (a
    /// bijection), from the process's seed and the length.
    @inline(__always)
    static func hash(_ word: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash = seed ^ (UInt64(word.count) &* 0x9E37_79B9_7F4A_7C15)
        guard let base = word.baseAddress else { return mix(hash) }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        while offset + 8 <= word.count {
            hash = mix(hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while offset < word.count {
            tail |= UInt64(word[offset]) << shift
            shift += 8
            offset += 1
        }
        return mix(hash ^ tail)
    }

    @inline(__always)
    private static func mix(_ value: UInt64) -> UInt64 {
        var mixed = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
