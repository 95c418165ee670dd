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

/// One line per entry on stderr: `time level label: message key=value …`.
/// Values come from peers (service names, reasons, addresses), so the
/// message and every value pass through `Escaped.line`: a newline in a
/// service name cannot forge a second log line, nor an escape sequence
/// reach the operator's terminal.
public struct EscapingLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    let label: String

    public init(label: String) { self.label = label }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        var line = "\(Self.timestamp()) \(event.level) \(Escaped.line(label)): \(Escaped.line(event.message.description))"
        for (key, value) in merged.sorted(by: { $0.key < $1.key }) {
            line += " \(Escaped.line(key))=\(Escaped.line(value.description))"
        }
        line += "\n"
        StandardError.write(line)
    }

    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var parts = tm()
        var seconds = now.tv_sec
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(Int(parts.tm_year) + 1900, 4))-\(pad(Int(parts.tm_mon) + 1, 2))-\(pad(Int(parts.tm_mday), 2))"
            + "T\(pad(Int(parts.tm_hour), 2)):\(pad(Int(parts.tm_min), 2)):\(pad(Int(parts.tm_sec), 2)).\(pad(now.tv_nsec / 1_000_000, 3))Z"
    }
}
