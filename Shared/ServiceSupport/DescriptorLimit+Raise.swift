import Logging
import SystemSupport
import ZeroMQ

extension DescriptorLimit {
    /// Raises the soft descriptor limit to the hard one and logs the figure
    /// (a warning when it could not be raised): how many connections and
    /// files this process can hold is then in its log.
    @discardableResult
    public static func raise(logging logger: Logger, level: Logger.Level = .info) -> DescriptorLimit {
        let (limit, raised) = raise()
        if raised {
            logger.log(level: level, "file descriptor limit", metadata: ["soft": "\(limit.soft)", "hard": "\(limit.hard)"])
        } else {
            logger.warning(
                "file descriptor limit could not be raised to the hard limit",
                metadata: ["soft": "\(limit.soft)", "hard": "\(limit.hard)"])
        }
        return limit
    }
}
