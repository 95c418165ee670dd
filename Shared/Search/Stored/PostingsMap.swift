#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// A saved postings file mapped read-only (`StoredPostings`): its columns
/// are read in place (`PostingColumn`), so they cost the process no memory
/// of its own, and the kernel shares their pages with every process that
/// maps the same file (a replica's copy, the CLI) and drops them under
/// pressure. Unmapped when the last column that reads it is gone.
///
/// The file is never written after it is named: a save writes another
/// file and renames it over this one, which stays mapped, unchanged,
/// until its columns are gone.
final class PostingsMap: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer

    /// Maps `path` whole; throws `cannotRead` naming why.
    init(path: String) throws(StoredPostingsError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotRead(path, String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .cannotRead(path, String(cString: strerror(errno))) }
        let size = Int(status.st_size)
        guard size > 0 else { throw .damaged("\(path) is empty") }
        let mapped = mmap(nil, size, PROT_READ, MAP_SHARED, descriptor, 0)
        guard let mapped, mapped != MAP_FAILED else { throw .cannotRead(path, "mmap: " + String(cString: strerror(errno))) }
        bytes = UnsafeRawBufferPointer(start: mapped, count: size)
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count) }
}
