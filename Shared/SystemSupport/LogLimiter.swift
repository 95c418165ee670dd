import Synchronization

/// At most one log line per reason per interval: what a flood of bad
/// messages may cost is a line a second, with a count of what was left
/// out, instead of a line per message. Any thread.
public final class LogLimiter: Sendable {
    private struct Entry {
        var lastLogged: ContinuousClock.Instant
        /// The last time the reason came up, logged or not.
        var lastSeen: ContinuousClock.Instant
        var suppressed = 0
    }

    private let interval: Duration
    private let entries = Mutex<[String: Entry]>([:])

    public init(interval: Duration = .seconds(1)) { self.interval = interval }

    /// Whether to log a line for `reason` now; if so, how many lines for
    /// it were left out since the last one.
    public func admit(_ reason: String, now: ContinuousClock.Instant = .now) -> (log: Bool, suppressed: Int) {
        entries.withLock { entries in
            guard var entry = entries[reason] else {
                entries[reason] = Entry(lastLogged: now, lastSeen: now)
                return (true, 0)
            }
            guard entry.lastLogged.duration(to: now) >= interval else {
                entry.suppressed += 1
                entry.lastSeen = now
                entries[reason] = entry
                return (false, 0)
            }
            entries[reason] = Entry(lastLogged: now, lastSeen: now)
            return (true, entry.suppressed)
        }
    }

    /// Writes a line for `reason` through `write` (told how many were left
    /// out before it) when `admit` lets it, and counts the interval again
    /// from when `write` returned: lines as written, each stamped inside
    /// `write`, are an interval apart however late this thread ran between
    /// the admission and the stamp.
    public func log(
        _ reason: String, clock now: () -> ContinuousClock.Instant = { .now }, _ write: (_ suppressed: Int) -> Void
    ) {
        let (log, suppressed) = admit(reason, now: now())
        guard log else { return }
        write(suppressed)
        let written = now()
        entries.withLock { $0[reason]?.lastLogged = written }
    }

    /// Counts left out for reasons quiet for a whole interval since, so a
    /// flood that stops is still summed up; those reasons are forgotten.
    public func overdue(now: ContinuousClock.Instant = .now) -> [(reason: String, suppressed: Int)] {
        entries.withLock { entries in
            var due: [(reason: String, suppressed: Int)] = []
            // Quiet: not come up at all for an interval. A flood still going
            // on is summed up by its next admitted line instead.
            for (reason, entry) in entries where entry.lastSeen.duration(to: now) >= interval {
                if entry.suppressed > 0 { due.append((reason, entry.suppressed)) }
                entries[reason] = nil
            }
            return due
        }
    }
}
