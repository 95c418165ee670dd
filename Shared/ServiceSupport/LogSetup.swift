#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Logging
import Observability

public enum LogSetup {
    /// Structured logs to stderr at `level`, once per process, every
    /// message and value escaped (`EscapingLogHandler`).
    /// With traces exported (OTEL_EXPORTER_OTLP_ENDPOINT), a line written
    /// inside a span carries its `trace_id` and `span_id`.
    public static func bootstrap(level: Logger.Level, environment: [String: String] = ProcessInfo.processInfo.environment) {
        let provider = TracingStart.isRequested(environment) ? TracingStart.loggingMetadata : nil
        LoggingSystem.bootstrap { label in
            var handler = EscapingLogHandler(label: label)
            handler.logLevel = level
            handler.metadataProvider = provider
            return handler
        }
    }

    /// No log output at all: for a full-screen program, where a line on
    /// stderr would land in the middle of the display.
    public static func silence() {
        LoggingSystem.bootstrap { _ in SwiftLogNoOpLogHandler() }
    }
}
