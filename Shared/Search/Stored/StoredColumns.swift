#if !_endian(little)
#error("saved postings are read in place: little-endian, as they are written")
#endif

/// The columns of a saved postings file, handed out in the order they were
/// written (`ImpactIndex.storeColumns`), each read in place from the map:
/// never one that reaches past the columns' end.
struct StoredColumns {
    private let map: PostingsMap
    private let values: UnsafePointer<UInt32>
    /// Where the next column starts, and where the columns end, in values.
    private var position = 0
    private let end: Int

    /// The columns are `map`'s bytes from `start` (a multiple of 4) up to
    /// `end`, a whole number of values.
    init(in map: PostingsMap, from start: Int, to end: Int) {
        precondition(start % MemoryLayout<UInt32>.alignment == 0 && start <= end && end <= map.bytes.count && (end - start) % 4 == 0)
        self.map = map
        self.end = (end - start) / 4
        values = (map.bytes.baseAddress.unsafelyUnwrapped + start).bindMemory(to: UInt32.self, capacity: self.end)
    }

    /// Values not handed out yet.
    var left: Int { end - position }

    /// The next `count` values, read in place.
    mutating func next(_ count: Int) throws(StoredPostingsError) -> PostingColumn {
        guard count >= 0, count <= left else { throw .damaged("a column of \(count) postings runs past the file's end") }
        defer { position += count }
        guard count > 0 else { return PostingColumn() }
        return PostingColumn(mapped: values + position, count: count, in: map)
    }

    /// Whether every column was handed out.
    var atEnd: Bool { position == end }
}
