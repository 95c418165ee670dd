#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What keeps searches from seeing half a page of changes: many searches
/// pass at once, and a page being made searchable closes it, from just
/// before its transaction commits until the ranking holds it. Unlike a
/// read-write lock, it may be opened on another thread than the one that
/// closed it: the writer commits and goes on to the next page's documents
/// while a thread of the ranking's own takes this page in, and opens the
/// gate when done (`SQLiteSearchIndex.writeThenRank`).
///
/// It prefers a page waiting to close it: searches that come meanwhile
/// wait, so a steady stream of them cannot hold a catch-up off. But the
/// searches that waited while it was closed pass when it opens, before
/// the next page closes it again: during a catch-up the next page's
/// writer is most often waiting to close it by then, and they would wait
/// for the whole catch-up. A thread must never pass it while it holds it
/// closed.
final class SearchGate: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let changed: UnsafeMutablePointer<pthread_cond_t>
    /// Guarded by `mutex`: searches passing now, whether it is closed,
    /// closers waiting, searches waiting (not yet let in), searches let in
    /// ahead of the closers by the last open and not yet in, and how many
    /// times it opened (a waiting search's ticket).
    private var inside = 0
    private var closed = false
    private var closing = 0
    private var waiting = 0
    private var admitted = 0
    private var opens = 0

    init() {
        mutex = .allocate(capacity: 1)
        changed = .allocate(capacity: 1)
        precondition(pthread_mutex_init(mutex, nil) == 0 && pthread_cond_init(changed, nil) == 0, "cannot make the search gate")
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        changed.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` once the gate is open, and keeps it from closing meanwhile.
    @available(*, noasync, message: "blocks its thread while a page is made searchable")
    func passing<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        if closed || closing > 0 {
            waiting += 1
            let ticket = opens
            // Let in by the first open after it came, or once no page waits to close it.
            while closed || (closing > 0 && opens == ticket) { pthread_cond_wait(changed, mutex) }
            if opens == ticket {
                waiting -= 1
            } else {
                admitted -= 1
                if admitted == 0 { pthread_cond_broadcast(changed) }
            }
        }
        inside += 1
        pthread_mutex_unlock(mutex)
        defer {
            pthread_mutex_lock(mutex)
            inside -= 1
            if inside == 0 { pthread_cond_broadcast(changed) }
            pthread_mutex_unlock(mutex)
        }
        return try body()
    }

    /// Closes it once the searches passing have left (and it is open).
    @available(*, noasync, message: "blocks its thread until the searches passing leave")
    func closeToSearches() {
        pthread_mutex_lock(mutex)
        closing += 1
        while closed || inside > 0 || admitted > 0 { pthread_cond_wait(changed, mutex) }
        closing -= 1
        closed = true
        pthread_mutex_unlock(mutex)
    }

    /// Searches and closers waiting now (for the tests).
    var waiters: (searches: Int, closers: Int) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return (waiting, closing)
    }

    /// Opens it, on any thread: the searches waiting now pass before the
    /// next close.
    func openToSearches() {
        pthread_mutex_lock(mutex)
        closed = false
        opens &+= 1
        (admitted, waiting) = (admitted + waiting, 0)
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }
}
