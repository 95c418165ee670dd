#if canImport(Glibc)
import Glibc
#endif

/// Gives what malloc holds free back to the system (glibc's `malloc_trim`).
/// Postings regrown as posts come are let go on whichever thread applied
/// the next page, so each thread's arena keeps free room that still counts
/// as the process's own memory (RssAnon): a worker that followed a 1M
/// import held about 100 MB more than one that loaded the same postings.
///
/// And keeps large blocks mapped of their own (`keepLargeBlocksMapped`):
/// glibc raises the size past which it maps a block each time one such
/// block is freed (up to 32 MB), so a common word's postings (megabytes)
/// soon come from the heap, and every copy left behind by their growth
/// stays the process's until the next trim; mapped, it goes back at once.
/// (A block that fits in room the heap already has free still comes from
/// there, so the effect shows in a worker's memory over an import, as the
/// search suite measures it, not in one allocation.)
enum FreeMemory {
    private typealias Trim = @convention(c) (Int) -> Int32
    private typealias Option = @convention(c) (Int32, Int32) -> Int32

    /// Blocks of at least this many bytes are mapped of their own.
    static let mappedFrom: Int32 = 1 << 18

    /// Looked up once; nil where the C library has none (not glibc).
    private static let trim: Trim? = symbol("malloc_trim")

    /// Set once for the process, on first use. Also caps malloc's arenas
    /// at one a core (`arenas`): glibc keeps up to eight a core, one taken by
    /// each new thread that allocates, and the threads a save writes and
    /// reads its file on (`onThread`) left theirs holding free room: after
    /// an import of 1,000,000 posts with its saves, a worker's RssAnon was
    /// 225 MB, 174 MB with the cap (docs/BENCHMARKS.md).
    private static let mapped: Bool = {
        // glibc's M_MMAP_THRESHOLD; setting it also stops the raising.
        guard let option: Option = symbol("mallopt") else { return false }
        _ = option(-8, arenas)  // M_ARENA_MAX
        return option(-3, mappedFrom) == 1
    }()

    /// Arenas malloc may keep: one a core, at least two.
    static var arenas: Int32 { Int32(clamping: Swift.max(2, sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    private static func symbol<T>(_ name: String) -> T? {
        #if canImport(Glibc)
        guard let found = dlsym(dlopen(nil, RTLD_LAZY), name) else { return nil }
        return unsafeBitCast(found, to: T.self)
        #else
        return nil
        #endif
    }

    static func giveBack() { _ = trim?(0) }

    /// Blocks of `mappedFrom` bytes or more are mapped, and unmapped when
    /// freed, for the rest of the process; answers whether that holds.
    @discardableResult
    static func keepLargeBlocksMapped() -> Bool { mapped }
}
