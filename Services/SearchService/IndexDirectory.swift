import Foundation
import LocalPlatform
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// The owner-only directory a search-service keeps its index in, held until
/// the process exits by an exclusive lock on its `lock` file (the kernel
/// lets go of it however the process ends, kill -9 included): two
/// processes never write one index (each keeps its documents' lengths in
/// memory, and would rank by stale ones).
///
/// Given none, a process takes the first free slot of `<data dir>/search/`
/// (`1`, `2`, … up to `slots`), so `honcho start -c search=4` gives four
/// indexes with no configuration, and a process started again takes a slot
/// whose index needs only what changed since it last applied.
struct IndexDirectory: Sendable {
    let path: String

    /// At most this many slots: each is a whole index on disk.
    static let slots = 64
    static let indexFile = "index.sqlite"
    /// The ranking postings saved at a stop (`RankingSave`).
    static let postingsFile = "ranking.postings"

    /// Where a slot's siblings are; nil for a directory named by --index-dir.
    let parent: String?

    var indexPath: String { path + "/" + Self.indexFile }
    var postingsPath: String { path + "/" + Self.postingsFile }

    /// The index file of the slot beside this one that has applied the most,
    /// with that sequence: where a new slot's index may be copied from.
    func furthestSibling() -> (path: String, applied: Int64)? {
        parent.flatMap { Self.furthest(under: $0, besides: indexPath) }
    }

    /// The index file of the slot under `parent` that has applied the most
    /// (other than `besides`), with that sequence.
    static func furthest(under parent: String, besides: String? = nil) -> (path: String, applied: Int64)? {
        var best: (path: String, applied: Int64)?
        for slot in 1...Self.slots {
            let file = parent + "/\(slot)/" + Self.indexFile
            guard file != besides, let applied = IndexSnapshot.applied(at: file), applied > best?.applied ?? 0 else { continue }
            best = (file, applied)
        }
        return best
    }

    /// `path`, which no other process may be using.
    init(claiming path: String) throws(IndexDirectoryError) {
        guard try Self.lock(path) else { throw .inUse(path) }
        (self.path, self.parent) = (path, nil)
    }

    /// The first free slot under `parent`.
    init(slotUnder parent: String) throws(IndexDirectoryError) {
        try Self.makeOwnerOnly(parent)
        for slot in 1...Self.slots {
            let path = parent + "/\(slot)"
            if try Self.lock(path) {
                (self.path, self.parent) = (path, parent)
                return
            }
        }
        throw .noFreeSlot(parent, Self.slots)
    }

    /// Makes `path` (0700, owner-only whatever the umask) if needed (one
    /// that exists must be the user's own and owner-only already), and takes
    /// its lock, never released; false when another process holds it.
    private static func lock(_ path: String) throws(IndexDirectoryError) -> Bool {
        try makeOwnerOnly(path)
        let file = path + "/lock"
        let descriptor = open(file, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .cannotUse(file, String(cString: strerror(errno))) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno
            close(descriptor)
            if reason == EWOULDBLOCK { return false }
            throw .cannotUse(file, String(cString: strerror(reason)))
        }
        return true
    }

    private static func makeOwnerOnly(_ path: String) throws(IndexDirectoryError) {
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            // The parents too (a first run): made owner-only as well.
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw .cannotUse(path, "\(error.localizedDescription)")
            }
        }
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { throw .cannotUse(path, "not a directory") }
        guard status.st_uid == getuid() else { throw .cannotUse(path, "owned by another user") }
        // Never widened or narrowed behind the owner's back: said, and left to them.
        guard status.st_mode & 0o077 == 0 else {
            throw .cannotUse(path, "group or others may open it (mode \(String(status.st_mode & 0o777, radix: 8))); chmod 700 it first")
        }
    }
}
