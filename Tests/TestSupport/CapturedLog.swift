import Logging
import Synchronization

/// A log whose entries a test reads back: each entry's level and message.
public final class CapturedLog: Sendable {
    private let entries = Mutex<[(level: Logger.Level, message: String)]>([])

    public init() {}

    public var logger: Logger {
        Logger(label: "test") { _ in Handler(log: self) }
    }

    public func messages(atLeast level: Logger.Level) -> [String] {
        entries.withLock { entries in entries.filter { $0.level >= level }.map(\.message) }
    }

    private struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            log.entries.withLock { $0.append((event.level, "\(event.message)")) }
        }
    }
}
