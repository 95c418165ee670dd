#if canImport(Glibc)
import Glibc
#endif

/// Gives what malloc holds free back to the system (glibc's `malloc_trim`).
/// Postings regrown as posts come are let go on whichever thread applied
/// the next page, so each thread's arena keeps free room that still counts
/// as the process's own memory (RssAnon): a worker that followed a 1M
/// import held about 100 MB more than one that loaded the same postings.
enum FreeMemory {
    private typealias Trim = @convention(c) (Int) -> Int32

    /// Looked up once; nil where the C library has none (not glibc).
    private static let trim: Trim? = {
        #if canImport(Glibc)
        guard let symbol = dlsym(dlopen(nil, RTLD_LAZY), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: Trim.self)
        #else
        return nil
        #endif
    }()

    static func giveBack() { _ = trim?(0) }
}
