import Foundation
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// The ranking's postings kept in a file beside the index, so a search
/// worker started again ranks at once instead of reading every document
/// back (16-21 s at a million posts). Which file belongs to the index is
/// the index's to say (`FTS5SearchIndex` records its id once it is saved,
/// and forgets it when the index is emptied): a file whose id the index
/// does not name is never read. What changed after the save is made good
/// when it is taken up (`FTS5SearchIndex.restoreRanking`).
///
/// The file: `magic`, the format's version, the file's id (16 bytes),
/// the last rowid its documents reach, the index (`ImpactIndex.store`:
/// rowids as varint gaps, counts as varints, bounds as doubles), then the
/// byte count up to there and `magic` again, so a cut file is told apart.
/// It is written under another name, made durable, then renamed over the
/// last one: a crash leaves the old file or the new, never half of one.
enum StoredPostings {
    static let magic = Array("posts ranking postings\n".utf8)
    static let version: UInt64 = 1

    /// Writes `index` (which holds the documents up to `loadedThrough`) to
    /// `path` under `id`; answers the bytes written.
    @discardableResult
    static func write(_ index: ImpactIndex, loadedThrough: Int64, id: UUID, to path: String) throws(StoredPostingsError) -> Int {
        let temporary = path + ".new"
        unlink(temporary)  // left by a save that did not finish
        var writer = try StoredWriter(creating: temporary)
        writer.bytes(magic)
        writer.varint(version)
        writer.bytes(withUnsafeBytes(of: id.uuid) { Array($0) })
        writer.varint(Int(loadedThrough))
        index.store(into: &writer)
        writer.varint(writer.written + writer.pending)
        writer.bytes(magic)
        let size = writer.written + writer.pending
        do {
            try writer.finish(temporary)
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
    static func read(from path: String, id: UUID) throws(StoredPostingsError) -> (index: ImpactIndex, loadedThrough: Int64) {
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
        var reader = StoredReader(bytes)
        guard try reader.bytes(magic.count) == magic else { throw .damaged("\(path) is not a file of ranking postings") }
        let found = try reader.varint()
        guard found == version else { throw .damaged("\(path) is of version \(found); this build reads version \(version)") }
        guard try reader.bytes(16) == withUnsafeBytes(of: id.uuid, { Array($0) }) else { throw .damaged("\(path) is not the file the index names") }
        let loadedThrough = Int64(try reader.count(atMost: Int(Int64.max)))
        let index = try ImpactIndex(from: &reader)
        let end = reader.offset
        guard try reader.count(atMost: Int.max) == end, try reader.bytes(magic.count) == magic, reader.isAtEnd else {
            throw .damaged("\(path) does not end where it says")
        }
        return (index, loadedThrough)
    }
}
