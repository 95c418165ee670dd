import Foundation
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// The ranking's postings kept in a file beside the index, so a search
/// worker started again ranks at once instead of reading every document
/// back (16-21 s at a million posts). Which file belongs to the index is
/// the index's to say (`SQLiteSearchIndex` records its id once it is saved,
/// and forgets it when the index is emptied): a file whose id the index
/// does not name is never read. What changed after the save is made good
/// when it is taken up (`SQLiteSearchIndex.restoreRanking`).
///
/// The postings' columns are read in place from the mapped file
/// (`PostingsMap`, `PostingColumn`), as Lucene's and Tantivy's segments
/// are: taking the file up reads its small compressed part, checks the
/// columns once, and copies none of them; a tier changed after is copied
/// into memory then.
///
/// The file: `magic`, the format's version, the length of the compressed
/// part once decompressed and its own (8 bytes each), then that part as
/// one zstd frame (`StoredWriter`): the file's id (16 bytes), the last
/// rowid its documents reach, the index but its columns (`ImpactIndex.store`:
/// the vocabulary, each tier's count and bounds, the documents' lengths),
/// then the byte count up to there and `magic` again. Then zeros up to a
/// multiple of `pageSize`, the columns (`ImpactIndex.storeColumns`: each
/// tier's rowids, then its counts, then the documents' stems, where each
/// starts and the stems themselves (`DocumentStems`), as 4-byte
/// little-endian values), their
/// byte count (8 bytes) and `magic`, so a cut file is told apart.
/// It is written under another name, made durable, then renamed over the
/// last one: a crash leaves the old file or the new, never half of one,
/// and a file a process has mapped is never changed under it.
public enum StoredPostings {
    static let magic = Array("posts ranking postings\n".utf8)
    /// 4: the documents' stems too (3 read the columns in place; 2
    /// compressed them; 1 did not compress). A file of another version is
    /// refused, and the postings are read from the index instead.
    static let version: UInt64 = 4
    /// The columns start on a page of their own.
    static let pageSize = 4096

    /// Writes `index` (which holds the documents up to `loadedThrough`) to
    /// `path` under `id`; answers the bytes written.
    @discardableResult
    public static func write(_ index: ImpactIndex, loadedThrough: Int64, id: UUID, to path: String) throws(StoredPostingsError) -> Int {
        let temporary = path + ".new"
        unlink(temporary)  // left by a save that did not finish
        var writer = try StoredWriter(creating: temporary)
        writer.bytes(magic)
        writer.varint(version)
        writer.startCompressing()
        writer.bytes(withUnsafeBytes(of: id.uuid) { Array($0) })
        writer.varint(Int(loadedThrough))
        index.store(into: &writer)
        writer.varint(writer.written + writer.pending)
        writer.bytes(magic)
        writer.endCompressing()
        writer.align(to: pageSize)
        let columnsFrom = writer.fileOffset
        index.storeColumns(into: &writer)
        withUnsafeBytes(of: UInt64(writer.fileOffset - columnsFrom).littleEndian) { writer.bytes($0) }
        writer.bytes(magic)
        let size: Int
        do {
            try writer.finish(temporary)
            size = writer.fileBytes
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .cannotWrite(path, reason)
        }
        return size
    }

    /// The index saved at `path` under `id`, its columns read in place from
    /// the mapped file, and the last rowid its documents reach.
    public static func read(from path: String, id: UUID) throws(StoredPostingsError) -> (index: ImpactIndex, loadedThrough: Int64) {
        let map = try PostingsMap(path: path)
        let bytes = map.bytes
        // The plain start: magic, version (one byte), the compressed part's lengths.
        let start = magic.count + 1 + 16
        guard bytes.count >= start, Array(bytes[..<magic.count]) == magic else { throw .damaged("\(path) is not a file of ranking postings") }
        let found = bytes[magic.count]
        guard found == version else { throw .damaged("\(path) is of version \(found); this build reads version \(version)") }
        let length = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: magic.count + 1, as: UInt64.self))
        let compressed = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: magic.count + 9, as: UInt64.self))
        guard length <= UInt64(Int.max - start), compressed <= UInt64(bytes.count - start) else {
            throw .damaged("\(path) says it holds \(length) bytes in \(compressed)")
        }
        // The columns: from the page after the compressed part, up to their byte count and `magic`.
        let columnsFrom = (start + Int(compressed) + pageSize - 1) / pageSize * pageSize
        let trailer = 8 + magic.count
        guard bytes.count >= columnsFrom + trailer, Array(bytes[(bytes.count - magic.count)...]) == magic,
            UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: bytes.count - trailer, as: UInt64.self))
                == UInt64(bytes.count - trailer - columnsFrom),
            (bytes.count - trailer - columnsFrom) % 4 == 0
        else { throw .damaged("\(path) does not end where it says") }
        var columns = StoredColumns(in: map, from: columnsFrom, to: bytes.count - trailer)
        var reader = StoredReader(
            compressed: UnsafeRawBufferPointer(rebasing: bytes[start..<(start + Int(compressed))]), length: Int(length), start: start)
        guard try reader.bytes(16) == withUnsafeBytes(of: id.uuid, { Array($0) }) else { throw .damaged("\(path) is not the file the index names") }
        let loadedThrough = Int64(try reader.count(atMost: Int(Int64.max)))
        let index = try ImpactIndex(from: &reader, columns: &columns)
        let end = reader.offset
        guard try reader.count(atMost: Int.max) == end, try reader.bytes(magic.count) == magic, try reader.atEnd(), columns.atEnd else {
            throw .damaged("\(path) does not end where it says")
        }
        return (index, loadedThrough)
    }
}
