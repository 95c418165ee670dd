/// One column of a tier's postings (its rowids, or its weighted counts):
/// either in memory this process owns, or read in place from the saved
/// postings' mapped file (`StoredPostings`), whose pages are the kernel's
/// to keep or drop and are shared by every process that maps them. A
/// mapped column is never written: its first change copies it into memory
/// (so after a restart only the tiers changed since the save are the
/// process's own), as a column shared with a copy of the index (a save
/// being written) is copied before it changes.
///
/// Thread rules: a value, as an array is. Its bytes are written only
/// through a `HeapColumn` no other value holds.
struct PostingColumn: RandomAccessCollection, @unchecked Sendable {
    /// Where its values are: `heap`'s, or inside `mapping`.
    private var base: UnsafePointer<UInt32>?
    private(set) var count = 0
    private var heap: HeapColumn?
    /// Keeps the file mapped while the column reads it.
    private var mapping: PostingsMap?

    init() {}

    /// `count` values at `base`, inside `mapping`.
    init(mapped base: UnsafePointer<UInt32>, count: Int, in mapping: PostingsMap) {
        (self.base, self.count, self.mapping) = (base, count, mapping)
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    @inline(__always)
    subscript(position: Int) -> UInt32 {
        precondition(position >= 0 && position < count, "posting index out of range")
        return base.unsafelyUnwrapped[position]
    }

    /// Values it has room for without moving: 0 when it reads a mapped file.
    var capacity: Int { heap?.capacity ?? 0 }

    /// Whether its values are read from a mapped file.
    var isMapped: Bool { mapping != nil }

    func withUnsafeBufferPointer<Result>(_ body: (UnsafeBufferPointer<UInt32>) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(self) { try body(UnsafeBufferPointer(start: base, count: count)) }
    }

    /// Adds a value at the end. Its room grows by `growth(for:)`, and a
    /// mapped or shared column is first copied into memory of its own.
    mutating func append(_ value: UInt32) {
        if count == capacity || !isKnownUniquelyReferenced(&heap) { move(toCapacity: Self.growth(for: count)) }
        heap.unsafelyUnwrapped.values[count] = value
        count += 1
    }

    /// Holds no more room than its values need (a mapped column holds none).
    mutating func trim() {
        guard let heap, heap.capacity > count else { return }
        move(toCapacity: count)
    }

    /// How much a full column of `count` values grows to: up to
    /// `doublingUpTo` it doubles (rare words do not move at every posting),
    /// past it by an eighth, so that a worker whose postings grow as posts
    /// come (one that follows an import) holds at most an eighth more than
    /// it uses of a common word's, which are nearly all of them; each
    /// posting is then copied about eight times over its growth, a small
    /// cost beside tokenizing.
    static func growth(for count: Int) -> Int {
        count + (count < doublingUpTo ? Swift.max(4, count) : count / growthDivisor)
    }

    static let growthDivisor = 8
    static let doublingUpTo = 1024

    private mutating func move(toCapacity capacity: Int) {
        let moved = HeapColumn(capacity: Swift.max(capacity, count))
        if let base, count > 0 { moved.values.initialize(from: base, count: count) }
        (heap, mapping, base) = (moved, nil, UnsafePointer(moved.values))
    }
}

/// A column's values in memory of this process's own.
final class HeapColumn {
    let values: UnsafeMutablePointer<UInt32>
    let capacity: Int

    init(capacity: Int) {
        values = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    deinit { values.deallocate() }
}
