#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A lock that many threads hold at once to read and one alone to write:
/// queries rank on every core, and a batch of changes is applied with none
/// of them reading. It prefers a waiting writer (glibc's default prefers
/// readers, under which a steady stream of queries could hold a catch-up
/// batch off for good), so a thread must never take it to read while it
/// already holds it.
final class ReadWriteLock: @unchecked Sendable {
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>

    init() {
        lock = .allocate(capacity: 1)
        var attributes = pthread_rwlockattr_t()
        pthread_rwlockattr_init(&attributes)
        pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
        let status = pthread_rwlock_init(lock, &attributes)
        pthread_rwlockattr_destroy(&attributes)
        precondition(status == 0, "pthread_rwlock_init failed: \(status)")
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    func reading<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }

    func writing<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }

}

/// A value behind a `ReadWriteLock`: read by many threads at once, written
/// by one alone.
final class ReadWriteLocked<Value>: @unchecked Sendable {
    private let lock = ReadWriteLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func read<T, E: Error>(_ body: (Value) throws(E) -> T) throws(E) -> T {
        try lock.reading { () throws(E) -> T in try body(value) }
    }

    func write<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        try lock.writing { () throws(E) -> T in try body(&value) }
    }
}
