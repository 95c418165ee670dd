import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One column of a tier's postings (its rowids, or its weighted counts):
/// in memory this process owns, or read in place from the saved postings'
/// mapped file (`StoredPostings`), whose pages are the kernel's to keep or
/// drop and are shared by every process that maps the same file. A mapped
/// column is never written: what is appended after goes to a tail in
/// memory of its own, so only what changed since the save is the
/// process's (a common word's column gains a posting with nearly every
/// new post; copying it whole at its first would bring it all back).
///
/// Thread rules: a value, as an array is. A value is never written below
/// the count of any column that holds its room: an append writes past its
/// own count, into a place it claims in the room (`HeapColumn.claim`), so
/// a copy (a save being written, a query's snapshot) that shares the room
/// goes on reading what it held, and the column it came from keeps
/// appending in place instead of copying whole each column it touches
/// while a save holds its copy (a common word's is megabytes). A copy
/// that appends where another already did claims nothing and moves to
/// room of its own, as a shared array would copy.
struct PostingColumn: RandomAccessCollection, @unchecked Sendable {
    /// The values that do not move: inside `mapping`, or `own`'s.
    private var base: UnsafePointer<UInt32>?
    private var baseCount = 0
    private var mapping: PostingsMap?
    /// A column in memory: its values, with room to grow; after a mapped
    /// base, the values appended since.
    private var own: HeapColumn?
    private var ownCount = 0

    init() {}

    /// `count` values at `base`, inside `mapping`.
    init(mapped base: UnsafePointer<UInt32>, count: Int, in mapping: PostingsMap) {
        (self.base, baseCount, self.mapping) = (base, count, mapping)
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }
    var count: Int { baseCount + ownCount }

    @inline(__always)
    subscript(position: Int) -> UInt32 {
        precondition(position >= 0 && position < count, "posting index out of range")
        if position < baseCount { return base.unsafelyUnwrapped[position] }
        return own.unsafelyUnwrapped.values[position - baseCount]
    }

    /// Values it holds in memory of its own, and room for more there.
    var inMemory: Int { ownCount }
    var capacity: Int { own?.capacity ?? 0 }

    /// Values read in place from a mapped file.
    var mapped: Int { mapping == nil ? 0 : baseCount }

    /// Its values as they lie, in order: the mapped part, then the rest.
    func forEachRun(_ body: (UnsafeBufferPointer<UInt32>) throws -> Void) rethrows {
        try withExtendedLifetime(self) {
            if baseCount > 0 { try body(UnsafeBufferPointer(start: base, count: baseCount)) }
            if let own, ownCount > 0 { try body(UnsafeBufferPointer(start: own.values, count: ownCount)) }
        }
    }

    /// `body` with the values of `range` where they lie, when they lie in
    /// one run (the mapped part, or what was appended since); else with a
    /// copy of them.
    func withValues<T>(in range: Range<Int>, _ body: (UnsafeBufferPointer<UInt32>) throws -> T) rethrows -> T {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "posting range out of range")
        guard !range.isEmpty else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try withExtendedLifetime(self) {
            if range.upperBound <= baseCount {
                return try body(UnsafeBufferPointer(start: base.unsafelyUnwrapped + range.lowerBound, count: range.count))
            }
            if range.lowerBound >= baseCount, let own {
                return try body(UnsafeBufferPointer(start: own.values + (range.lowerBound - baseCount), count: range.count))
            }
            return try ContiguousArray(range.map { self[$0] }).withUnsafeBufferPointer(body)
        }
    }

    /// Adds a value at the end. Room in memory grows by `growth(for:)`;
    /// room where another copy appended first is left to it while that
    /// copy lives, and the values copied to room of this column's own.
    mutating func append(_ value: UInt32) {
        append(count: 1) { $0.pointee = value }
    }

    /// Adds `count` values at the end, as many appends would, written by
    /// `body` from the place it is given: room grown and claimed once.
    mutating func append(count: Int, _ body: (UnsafeMutablePointer<UInt32>) -> Void) {
        guard count > 0 else { return }
        let end = ownCount + count
        var room = Self.growth(for: ownCount)
        while room < end { room = Self.growth(for: room) }
        // Room no other column holds is this one's without asking: no
        // compare-and-swap (a locked instruction) for each append; and,
        // full, it grows where it lies (`HeapColumn.resize`).
        if isKnownUniquelyReferenced(&own) {
            if end > own.unsafelyUnwrapped.capacity { own.unsafelyUnwrapped.resize(to: room) }
            own.unsafelyUnwrapped.claimAlone(ownCount, count: count)
        } else if own?.claim(ownCount, count: count) != true {
            move(toCapacity: room)
            _ = own.unsafelyUnwrapped.claim(ownCount, count: count)
        }
        body(own.unsafelyUnwrapped.values + ownCount)
        ownCount = end
    }

    /// Holds no more room in memory than its values there need.
    mutating func trim() {
        guard own.map({ $0.capacity > ownCount }) == true else { return }
        if ownCount > 0, isKnownUniquelyReferenced(&own) {
            own.unsafelyUnwrapped.resize(to: ownCount)
        } else {
            move(toCapacity: ownCount)
        }
    }

    /// How much full room for `count` values grows to: up to
    /// `doublingUpTo` it doubles (rare words do not move at every posting),
    /// past it by an eighth, so that a worker whose postings grow as posts
    /// come (one that follows an import) holds at most an eighth more than
    /// it uses of a common word's, which are nearly all of them; each
    /// posting would be copied about eight times over its growth, but a
    /// column alone in its room grows it by `realloc` (`HeapColumn.resize`:
    /// a large block is remapped, not copied).
    static func growth(for count: Int) -> Int {
        count + (count < doublingUpTo ? Swift.max(4, count) : count / growthDivisor)
    }

    static let growthDivisor = 8
    static let doublingUpTo = 1024

    private mutating func move(toCapacity capacity: Int) {
        let moved = HeapColumn(capacity: Swift.max(capacity, ownCount), claimed: ownCount)
        if let own, ownCount > 0 { moved.values.initialize(from: own.values, count: ownCount) }
        own = moved
    }
}

/// A column's values in memory of this process's own, shared by the copies
/// of a column: each value is written by the column that claimed its place,
/// and read only by columns whose count reaches past it (a place is written
/// again only by a column left alone in the room, which no copy reads).
///
/// Its values lie in a block of malloc's own, so that `resize` can hand it
/// to `realloc`.
final class HeapColumn: Sendable {
    /// Where its values lie, and room for how many: changed only by
    /// `resize`, for the one column that holds it.
    nonisolated(unsafe) private(set) var values: UnsafeMutablePointer<UInt32>
    nonisolated(unsafe) private(set) var capacity: Int
    /// Places claimed so far: values below it are written, or being
    /// written by the one column that claimed them.
    private let claimed: Atomic<Int>

    init(capacity: Int, claimed: Int) {
        values = Self.block(nil, capacity)
        self.capacity = capacity
        self.claimed = Atomic(claimed)
    }

    /// Room for `capacity` values, those below the count kept, made where
    /// malloc can: a large block (mapped of its own, `FreeMemory`) is
    /// remapped by the kernel, neither copied nor touched again (a new
    /// replica built from 1,000,000 posts took a fifth fewer page faults
    /// than when each growth copied the column into new memory). Only for
    /// the one column that holds it (uniquely referenced): another would
    /// read the old place.
    func resize(to capacity: Int) {
        values = Self.block(values, capacity)
        self.capacity = capacity
    }

    private static func block(_ old: UnsafeMutablePointer<UInt32>?, _ capacity: Int) -> UnsafeMutablePointer<UInt32> {
        let bytes = Swift.max(capacity, 1) * MemoryLayout<UInt32>.stride
        guard let block = realloc(old, bytes) else { fatalError("out of memory for \(capacity) postings") }
        return block.bindMemory(to: UInt32.self, capacity: capacity)
    }

    /// Claims the places from `position` (`count` of them) for a column
    /// that holds `position` values: only the first to ask, and only while
    /// there is room. A column whose copy appended first is refused, and
    /// moves.
    @inline(__always)
    func claim(_ position: Int, count: Int = 1) -> Bool {
        position + count <= capacity
            && claimed.compareExchange(expected: position, desired: position + count, ordering: .relaxed).exchanged
    }

    /// The same for the one column that holds this room (it is uniquely
    /// referenced): none can claim meanwhile, so a plain store does, and
    /// the next copy of the column still finds its places claimed.
    @inline(__always)
    func claimAlone(_ position: Int, count: Int = 1) {
        claimed.store(position + count, ordering: .relaxed)
    }

    deinit { free(values) }
}
