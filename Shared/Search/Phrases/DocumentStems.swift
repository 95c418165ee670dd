/// Each document's stems in order, by rowid: where a phrase is found and
/// counted (`ImpactPhrase`, `ImpactPhrases`) without reading the document,
/// and what a removed document held (without tokenizing its text again).
/// A forward index, as Lucene's positions are an inverted one: a phrase's
/// candidates are few (those holding its rarest words, best bound first),
/// and each is checked in one document's packed stems as they lie (the
/// phrase's own bytes looked for there, `PackedPhrase`), where reading a
/// post meant a read, a decompression and a tokenizer's pass.
///
/// Each document is `varint(title's stem count)`, `varint(content's)`,
/// then each stem as a varint (stem numbers are given in the order words
/// are first met, so a common word's is small: one or two bytes), padded
/// to whole 4-byte values in `words`; `starts[rowid]` is where it begins,
/// `starts[rowid + 1]` where it ends (a rowid with no document: empty). Both
/// are `PostingColumn`s, so a saved file's are read in place and only what
/// was added since is in memory of the process's own. A removed document's
/// stems stay while the process runs (its length, -1, says it is gone), and
/// are left out when the columns are saved (`storeColumns(into:leavingOut:)`):
/// a saved file holds the stems of the documents live when it was written,
/// however often posts were edited or deleted before.
///
/// Bound: `words` is indexed by 32-bit values, at most 16 GiB of stems
/// (about 8 billion tokens); `add` refuses past it (a precondition, as a
/// rowid past 32 bits is). `starts` holds a value for every rowid ever
/// given, 4 bytes each.
struct DocumentStems: Sendable {
    private(set) var starts = PostingColumn()
    private(set) var words = PostingColumn()

    init() {
        starts.append(0)
    }

    /// Columns read in place from a saved file; nil when they do not
    /// describe `documents` documents (a start past the stems' end, or one
    /// before the last).
    init?(starts: PostingColumn, words: PostingColumn, documents: Int) {
        guard starts.count == documents + 1, starts.first == 0 else { return nil }
        var (ascending, previous) = (true, UInt32(0))
        starts.forEachRun { run in
            for start in run {
                ascending = ascending && start >= previous
                previous = start
            }
        }
        guard ascending, Int(previous) == words.count else { return nil }
        (self.starts, self.words) = (starts, words)
    }

    /// Documents it has room for (every rowid below it).
    var documents: Int { starts.count - 1 }

    /// Values held in memory of its own (4 bytes each).
    var inMemory: Int { starts.inMemory + words.inMemory }

    /// Adds the document at `rowid`, past every one it holds.
    mutating func add(rowid: Int, title: [Int32], content: [Int32]) {
        precondition(rowid >= documents, "rowids only grow")
        let end = UInt32(words.count)
        while documents < rowid { starts.append(end) }
        var packer = Packer()
        packer.varint(UInt32(title.count), into: &words)
        packer.varint(UInt32(content.count), into: &words)
        for stem in title { packer.varint(UInt32(bitPattern: stem), into: &words) }
        for stem in content { packer.varint(UInt32(bitPattern: stem), into: &words) }
        packer.finish(into: &words)
        precondition(words.count <= Int(UInt32.max), "more stems than DocumentStems holds")
        starts.append(UInt32(words.count))
    }

    /// The stems of the document at `rowid` (its title's, its content's);
    /// empty ones for a rowid it holds nothing for.
    func stems(of rowid: Int) -> (title: [Int32], content: [Int32]) {
        withStems(of: rowid) { (Array($0), Array($1)) }
    }

    /// `body` with the stems of the document at `rowid` (its title's, its
    /// content's), decoded where they lie into room of its own (a stem is
    /// at least a byte); empty for a rowid it holds nothing for. A damaged
    /// count or stem never reads past the document's own values.
    func withStems<T>(of rowid: Int, _ body: (UnsafeBufferPointer<Int32>, UnsafeBufferPointer<Int32>) -> T) -> T {
        guard rowid >= 0, rowid < documents else { return body(UnsafeBufferPointer(start: nil, count: 0), UnsafeBufferPointer(start: nil, count: 0)) }
        return words.withValues(in: Int(starts[rowid])..<Int(starts[rowid + 1])) { values in
            let bytes = UnsafeRawBufferPointer(values)
            return withUnsafeTemporaryAllocation(of: Int32.self, capacity: max(1, bytes.count)) { room in
                var reader = Unpacker(bytes)
                let titleCount = min(reader.varint().map(Int.init) ?? 0, bytes.count)
                let contentCount = min(reader.varint().map(Int.init) ?? 0, bytes.count)
                var title = 0
                while title < titleCount, let stem = reader.varint() {
                    room[title] = Int32(bitPattern: stem)
                    title += 1
                }
                var content = title
                while content - title < contentCount, let stem = reader.varint() {
                    room[content] = Int32(bitPattern: stem)
                    content += 1
                }
                let decoded = UnsafeBufferPointer(room)
                return body(UnsafeBufferPointer(rebasing: decoded[..<title]), UnsafeBufferPointer(rebasing: decoded[title..<content]))
            }
        }
    }

    /// The weighted count of each of `phrases` in the document at `rowid`
    /// (its title's times `ImpactIndex.titleWeight`, plus its content's;
    /// overlapping ones each count, as in FTS5).
    func counts(of phrases: [PackedPhrase], in rowid: Int) -> [UInt32] {
        phrases.map { count(of: $0, in: rowid) }
    }

    /// `counts(of:in:)` for one phrase, found in the document's packed
    /// bytes where they lie (`PackedPhrase`): only its title's stems are
    /// read, to know where its content begins. The phrase's candidates
    /// are the posts that hold all its words, long ones most often, whose
    /// stems are hundreds or thousands; decoding them all cost more than
    /// the rest of a rare phrase's query.
    func count(of phrase: PackedPhrase, in rowid: Int) -> UInt32 {
        guard rowid >= 0, rowid < documents, !phrase.bytes.isEmpty else { return 0 }
        let packed = words.withValues(in: Int(starts[rowid])..<Int(starts[rowid + 1])) { values -> UInt32? in
            let bytes = UnsafeRawBufferPointer(values)
            var reader = Unpacker(bytes)
            let titleCount = reader.varint() ?? 0
            _ = reader.varint()
            let titleStart = reader.position
            var title: UInt32 = 0
            while title < titleCount, reader.varint() != nil { title += 1 }
            let inTitle = phrase.occurrences(in: UnsafeRawBufferPointer(rebasing: bytes[titleStart..<reader.position]))
            let contentStart = reader.position
            let inContent = phrase.occurrences(in: UnsafeRawBufferPointer(rebasing: bytes[contentStart...]))
            // The content's last value is padded with zero bytes, up to 3.
            guard !phrase.endsInZero || contentStart + inContent.lastEnd <= bytes.count - 3 else { return nil }
            return UInt32(inTitle.count) * ImpactIndex.titleWeight + UInt32(inContent.count)
        }
        return packed ?? withStems(of: rowid) { title, content in Self.count(of: phrase.stems, title: title, content: content) }
    }

    private static func count(of phrase: [Int32], title: UnsafeBufferPointer<Int32>, content: UnsafeBufferPointer<Int32>) -> UInt32 {
        UInt32(occurrences(of: phrase, in: title)) * ImpactIndex.titleWeight + UInt32(occurrences(of: phrase, in: content))
    }

    static func occurrences(of phrase: [Int32], in stems: UnsafeBufferPointer<Int32>) -> Int {
        guard let first = phrase.first, stems.count >= phrase.count else { return 0 }
        var found = 0
        for start in 0...(stems.count - phrase.count) where stems[start] == first {
            var index = 1
            while index < phrase.count, stems[start + index] == phrase[index] { index += 1 }
            if index == phrase.count { found += 1 }
        }
        return found
    }

    /// How many values `storeColumns(into:leavingOut:)` writes to the
    /// stems' column: every document's but those `removed` says are gone.
    func storedWords(leavingOut removed: (Int) -> Bool) -> Int {
        var kept = words.count
        for rowid in 0..<documents where removed(rowid) { kept -= Int(starts[rowid + 1] - starts[rowid]) }
        return kept
    }

    /// Its columns, as `init?(starts:words:documents:)` takes them back,
    /// with no stems for the documents `removed` says are gone (their
    /// starts then equal the next: a rowid with nothing).
    func storeColumns(into writer: inout StoredWriter, leavingOut removed: (Int) -> Bool) {
        guard storedWords(leavingOut: removed) < words.count else {
            starts.forEachRun { writer.column($0) }
            words.forEachRun { writer.column($0) }
            return
        }
        var chunk: [UInt32] = [0]
        chunk.reserveCapacity(Self.chunk)
        var end: UInt32 = 0
        for rowid in 0..<documents {
            if !removed(rowid) { end += starts[rowid + 1] - starts[rowid] }
            chunk.append(end)
            if chunk.count == Self.chunk {
                chunk.withUnsafeBufferPointer { writer.column($0) }
                chunk.removeAll(keepingCapacity: true)
            }
        }
        chunk.withUnsafeBufferPointer { writer.column($0) }
        // The kept documents' values, a run of neighbours at a time.
        var run = 0..<0
        for rowid in 0..<documents where !removed(rowid) {
            let range = Int(starts[rowid])..<Int(starts[rowid + 1])
            if run.upperBound == range.lowerBound {
                run = run.lowerBound..<range.upperBound
            } else {
                words.withValues(in: run) { writer.column($0) }
                run = range
            }
        }
        words.withValues(in: run) { writer.column($0) }
    }

    /// Starts written to a file at a time.
    private static let chunk = 1 << 14

    /// Gives back what appending left spare.
    mutating func trim() {
        starts.trim()
        words.trim()
    }
}

/// Bytes packed four to a value, little-endian, appended to a column as
/// each value fills; the last one padded with zeros (`finish`).
private struct Packer {
    private var value: UInt32 = 0
    private var filled = 0

    mutating func varint(_ number: UInt32, into column: inout PostingColumn) {
        var number = number
        while number >= 0x80 {
            byte(UInt8(truncatingIfNeeded: number) | 0x80, into: &column)
            number >>= 7
        }
        byte(UInt8(number), into: &column)
    }

    private mutating func byte(_ byte: UInt8, into column: inout PostingColumn) {
        value |= UInt32(byte) << (8 * filled)
        filled += 1
        if filled == 4 {
            column.append(value)
            (value, filled) = (0, 0)
        }
    }

    /// Appends the value it has begun, if any.
    mutating func finish(into column: inout PostingColumn) {
        if filled > 0 { column.append(value) }
        (value, filled) = (0, 0)
    }
}

/// Reads varints from `bytes`, never past them.
private struct Unpacker {
    private let bytes: UnsafeRawBufferPointer
    private(set) var position = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The next varint, or nil at the end (or one longer than 32 bits).
    @inline(__always)
    mutating func varint() -> UInt32? {
        var number: UInt32 = 0
        var shift: UInt32 = 0
        while position < bytes.count, shift < 35 {
            let next = bytes[position]
            position += 1
            number |= UInt32(next & 0x7F) << shift
            if next < 0x80 { return number }
            shift += 7
        }
        return nil
    }
}
