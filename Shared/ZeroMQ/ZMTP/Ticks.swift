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

    /// `duration` as a timeout on this clock: its ticks plus the clock's
    /// resolution, so that a timeout never ends before `duration` has
    /// passed (a coarse reading lags the time by up to one resolution, and
    /// a peer dropped 1.4 ms early was seen on a busy machine); it may end
    /// up to one resolution later.
    static func of(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        return UInt64(seconds) &* 1_000_000_000 &+ UInt64(attoseconds / 1_000_000_000) &+ resolution
    }

    /// How far apart two readings of the clock can be (a few milliseconds).
    static let resolution: UInt64 = {
        var time = timespec()
        guard clock_getres(CLOCK_MONOTONIC_COARSE, &time) == 0 else { return 10_000_000 }
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }()
}
