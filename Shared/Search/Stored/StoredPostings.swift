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
/// The file: `magic`, the format's version, the length of the rest once
/// decompressed (8 bytes), then the rest as one zstd frame (`StoredWriter`;
/// 85 MB in 48 at a million posts): the file's id (16 bytes), the last
/// rowid its documents reach, the index (`ImpactIndex.store`: rowids as
/// varint gaps, counts as varints, bounds as doubles), then the byte count
/// up to there and `magic` again, so a cut file is told apart.
/// It is written under another name, made durable, then renamed over the
/// last one: a crash leaves the old file or the new, never half of one.
public enum StoredPostings {
    static let magic = Array("posts ranking postings\n".utf8)
    /// 2: compressed (1 was not; a file of 1 is refused as of another
    /// version, and the postings are read from the index instead).
    static let version: UInt64 = 2

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

    /// The index saved at `path` under `id`, and the last rowid its
    /// documents reach.
    public static func read(from path: String, id: UUID) throws(StoredPostingsError) -> (index: ImpactIndex, loadedThrough: Int64) {
        let data: Data
        do {
            // Mapped: the file's pages are the kernel's to drop, not the process's own memory.
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        } catch {
            throw .cannotRead(path, "\(error.localizedDescription)")
        }
        do {
            return try data.withUnsafeBytes { bytes in try parse(bytes, path: path, id: id) }
        } catch let error as StoredPostingsError {
            throw error
        } catch {
            throw .cannotRead(path, "\(error)")
        }
    }

    private static func parse(
        _ bytes: UnsafeRawBufferPointer, path: String, id: UUID
    ) throws(StoredPostingsError) -> (index: ImpactIndex, loadedThrough: Int64) {
        // The plain start: magic, version (one byte), the length of the rest once decompressed.
        let start = magic.count + 1 + 8
        guard bytes.count >= start, Array(bytes[..<magic.count]) == magic else { throw .damaged("\(path) is not a file of ranking postings") }
        let found = bytes[magic.count]
        guard found == version else { throw .damaged("\(path) is of version \(found); this build reads version \(version)") }
        let length = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: magic.count + 1, as: UInt64.self))
        guard length <= UInt64(Int.max - start) else { throw .damaged("\(path) says it holds \(length) bytes") }
        var reader = StoredReader(compressed: UnsafeRawBufferPointer(rebasing: bytes[start...]), length: Int(length), start: start)
        guard try reader.bytes(16) == withUnsafeBytes(of: id.uuid, { Array($0) }) else { throw .damaged("\(path) is not the file the index names") }
        let loadedThrough = Int64(try reader.count(atMost: Int(Int64.max)))
        let index = try ImpactIndex(from: &reader)
        let end = reader.offset
        guard try reader.count(atMost: Int.max) == end, try reader.bytes(magic.count) == magic, try reader.atEnd() else {
            throw .damaged("\(path) does not end where it says")
        }
        return (index, loadedThrough)
    }
}
