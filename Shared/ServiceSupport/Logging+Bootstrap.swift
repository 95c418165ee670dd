import Logging

public enum LogSetup {
    /// Structured logs to stderr at `level`, once per process.
    public static func bootstrap(level: Logger.Level) {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }

    /// No log output at all: for a full-screen program, where a line on
    /// stderr would land in the middle of the display.
    public static func silence() {
        LoggingSystem.bootstrap { _ in SwiftLogNoOpLogHandler() }
    }
}
