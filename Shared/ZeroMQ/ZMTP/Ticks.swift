#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// A coarse monotonic clock in nanoseconds (CLOCK_MONOTONIC_COARSE: a few
/// milliseconds of resolution, read without a system call), for the
/// connections' timeouts and sweeps. They are read on every wait, and
/// `ContinuousClock.Instant`'s arithmetic through `Duration` cost about a
/// hundred instructions a comparison there; these are plain integers.
enum Ticks {
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    static func of(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        return UInt64(seconds) &* 1_000_000_000 &+ UInt64(attoseconds / 1_000_000_000)
    }
}
