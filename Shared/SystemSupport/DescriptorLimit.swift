#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// The process's limit on open file descriptors (RLIMIT_NOFILE). Each
/// connection costs one, and a process out of them can neither accept nor
/// open anything; libzmq aborts on it in places. So every process raises its
/// soft limit to the hard one at start (`raise`), and the gateway accepts
/// only so many connections that a reserve is left for its own sockets.
public struct DescriptorLimit: Sendable, Equatable {
    public var soft: Int
    public var hard: Int

    public static var current: DescriptorLimit {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return DescriptorLimit(soft: 1024, hard: 1024) }
        return DescriptorLimit(soft: Self.count(limit.rlim_cur), hard: Self.count(limit.rlim_max))
    }

    private static func count(_ value: rlim_t) -> Int {
        value > rlim_t(Int32.max) ? Int(Int32.max) : Int(value)
    }

    /// Raises the soft limit to the hard one; returns the limit now in
    /// force (unchanged when raising failed, which the caller logs).
    @discardableResult
    public static func raise() -> (limit: DescriptorLimit, raised: Bool) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return (current, false) }
        guard limit.rlim_cur < limit.rlim_max else { return (current, true) }
        limit.rlim_cur = limit.rlim_max
        let raised = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0
        return (current, raised)
    }

    /// Descriptors kept for the process's own use (its listeners, libzmq's
    /// sockets and their connections, the event bus, files): an eighth of
    /// the limit, and at least 64.
    public var reserve: Int { max(64, soft / 8) }

    /// Connections a listener may hold at once: the soft limit less the reserve.
    public var connections: Int { max(1, soft - reserve) }
}
