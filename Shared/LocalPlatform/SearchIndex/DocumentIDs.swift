import Foundation
import GRDB

/// Which document (rowid) holds each post, by the post's uid, for the
/// index's writes: a change finds the document it replaces here, not in an
/// index of uids on disk. At a million posts such an index was 51 MB, and
/// each new post landed on one of its pages at random: with the same
/// schema in Python's sqlite3, writing the documents took 15.1 s with it
/// and 2.1 s without, where FTS5 alone took 10.2 s. A search worker
/// following an import then caught up 6.8 s after it instead of 27-28 s
/// (docs/BENCHMARKS.md).
///
/// An open-addressed table, at most half full, of 8 bytes a slot: 16 MB
/// at a million posts. A slot holds a rowid (`rowidBits`) and the top
/// 28 bits of the uid's hash, which place it and tell most uids apart. A
/// uid whose bits match a slot's is only a candidate: the caller confirms
/// it against the document (`rowid(of:where:)`).
struct DocumentIDs: Sendable {
    /// 0: empty; else `key << rowidBits | rowid`.
    private var slots = ContiguousArray<UInt64>(repeating: 0, count: Self.smallest)
    private(set) var count = 0

    /// Bits of a slot for the rowid: documents up to rowid 2^36 - 1, about
    /// 68 billion changes applied in the index's life.
    static let rowidBits = 36
    static let maxRowid = Int64(1) << rowidBits - 1
    /// The most slots (the key's bits): 134 million documents at half full.
    static let maxSlots = 1 << (64 - rowidBits)
    private static let smallest = 1024

    enum Failure: Error, CustomStringConvertible {
        case rowidOutOfRange(Int64)
        case full(Int)

        var description: String {
            switch self {
            case .rowidOutOfRange(let rowid): "the document rowid \(rowid) is past the \(DocumentIDs.maxRowid) the index can find by uid"
            case .full(let count): "the index holds \(count) documents, the most it can find by uid"
            }
        }
    }

    /// The rowid of the document that holds `uid`: the first candidate that
    /// `holds` confirms, or nil.
    func rowid(of uid: UUID, where holds: (Int64) throws -> Bool) rethrows -> Int64? {
        let key = Self.key(of: uid)
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: key) & mask  // `home` of its slots
        while slots[index] != 0 {
            if slots[index] >> UInt64(Self.rowidBits) == key {
                let rowid = Int64(slots[index] & UInt64(Self.maxRowid))
                if try holds(rowid) { return rowid }
            }
            index = (index + 1) & mask
        }
        return nil
    }

    /// Throws unless a document at `rowid` can be recorded beside `count`
    /// others (checked in the transaction that adds it, before it commits).
    static func admit(rowid: Int64, count: Int) throws(Failure) {
        guard rowid > 0, rowid <= maxRowid else { throw .rowidOutOfRange(rowid) }
        guard count < maxSlots / 2 else { throw .full(count) }
    }

    /// Records that `rowid` holds `uid`, as `admit` allowed.
    mutating func insert(_ uid: UUID, rowid: Int64) {
        if (count + 1) * 2 > slots.count { grow() }
        place(Self.slot(uid, rowid))
        count += 1
    }

    /// Forgets that `rowid` holds `uid` (nothing if it was not recorded).
    mutating func remove(_ uid: UUID, rowid: Int64) {
        let slot = Self.slot(uid, rowid)
        let mask = slots.count - 1
        var index = Self.home(of: slot, mask)
        while slots[index] != slot {
            guard slots[index] != 0 else { return }
            index = (index + 1) & mask
        }
        // Backward shift: each slot after the hole that may move into it
        // (whose home is not between the hole and itself) does, so no
        // probe ever stops early at the hole.
        var hole = index
        var next = (hole + 1) & mask
        while slots[next] != 0 {
            let home = Self.home(of: slots[next], mask)
            if (next - home) & mask >= (next - hole) & mask {
                slots[hole] = slots[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        slots[hole] = 0
        count -= 1
    }

    /// Every document's uid, as the index holds them.
    static func load(_ db: Database) throws -> DocumentIDs {
        var ids = DocumentIDs()
        let rows = try Row.fetchCursor(db, sql: "SELECT rowid, uid FROM document")
        while let row = try rows.next() {
            guard let uid = row[1] as UUID? else { continue }
            let rowid: Int64 = row[0]
            try admit(rowid: rowid, count: ids.count)
            ids.insert(uid, rowid: rowid)
        }
        return ids
    }

    private mutating func place(_ slot: UInt64) {
        let mask = slots.count - 1
        var index = Self.home(of: slot, mask)
        while slots[index] != 0 { index = (index + 1) & mask }
        slots[index] = slot
    }

    private mutating func grow() {
        let old = slots
        slots = ContiguousArray(repeating: 0, count: old.count * 2)
        for slot in old where slot != 0 { place(slot) }
    }

    /// What a slot holds for `uid` at `rowid`.
    private static func slot(_ uid: UUID, _ rowid: Int64) -> UInt64 {
        key(of: uid) << UInt64(rowidBits) | UInt64(truncatingIfNeeded: rowid)
    }

    private static func home(of slot: UInt64, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: slot >> UInt64(rowidBits)) & mask
    }

    /// The top bits of a mix of the uid's 16 bytes (a random or hashed
    /// UUID's are nearly all random; the mix spreads the rest).
    static func key(of uid: UUID) -> UInt64 {
        let (high, low) = withUnsafeBytes(of: uid.uuid) { ($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) }
        var mixed = high &* 0x9E37_79B9_7F4A_7C15 ^ low
        mixed = (mixed ^ mixed >> 31) &* 0xBF58_476D_1CE4_E5B9
        mixed ^= mixed >> 29
        return mixed >> UInt64(rowidBits)
    }
}
