import Synchronization

/// Things that are costly to make and belong to one thread at a time (a
/// SQLite connection, a tokenizer, a zstd context), kept between uses: a
/// use takes one no other thread is using, or makes one, and gives it back
/// after. It holds as many as were ever in use at once, which the threads
/// that use it bound (a process's sessions and its few threads of its own).
public final class IdlePool<Resource: Sendable>: Sendable {
    // Inlinable, so that each user's module specializes `use` for its
    // resource: unspecialized, every use looked up the metadata of
    // `[Resource]` and `Resource?` at run time (about 3,000 instructions
    // of a posts.get's, more than the lock).
    @usableFromInline let idle: Mutex<[Resource]>

    /// A pool holding `resources` to begin with (made beforehand, so that
    /// what cannot be made fails where the pool is made).
    public init(holding resources: [Resource] = []) {
        idle = Mutex(resources)
    }

    /// `body` with a resource of its own: one not in use, or one `make`
    /// makes should every one be.
    @inlinable
    public func use<T, E: Error>(making make: () throws(E) -> Resource, _ body: (Resource) throws(E) -> T) throws(E) -> T {
        let resource: Resource
        if let waiting = idle.withLock({ $0.popLast() }) { resource = waiting } else { resource = try make() }
        defer { idle.withLock { $0.append(resource) } }
        return try body(resource)
    }

    /// Takes out every resource not in use: for the owner to free them, as
    /// it goes.
    public func drain() -> [Resource] {
        idle.withLock { resources in
            defer { resources.removeAll() }
            return resources
        }
    }
}
