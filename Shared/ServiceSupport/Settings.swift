#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging

/// Reads a setting from a command-line flag, else an environment variable,
/// else a default, and names the variable or flag when a value is wrong.
public struct Settings: Sendable {
    public let environment: [String: String]

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    public func duration(_ flag: String?, env name: String, default fallback: Duration) throws -> Duration {
        guard let text = flag ?? environment[name], !text.isEmpty else { return fallback }
        guard let value = Self.parseDuration(text), value > .zero else {
            throw ConfigurationError("\(name) / flag value '\(text)' is not a duration; write e.g. 2500ms, 2.5s or 1m")
        }
        guard value <= Self.longestDuration else {
            throw ConfigurationError("\(name) / flag value '\(text)' is longer than a day")
        }
        return value
    }

    public func integer(_ flag: Int?, env name: String, default fallback: Int, minimum: Int = 1) throws -> Int {
        let value: Int
        if let flag {
            value = flag
        } else if let text = environment[name], !text.isEmpty {
            guard let parsed = Int(text) else { throw ConfigurationError("\(name)='\(text)' is not a whole number") }
            value = parsed
        } else {
            return fallback
        }
        guard value >= minimum else { throw ConfigurationError("\(name) / flag value \(value) must be at least \(minimum)") }
        return value
    }

    public func logLevel(_ flag: String?, env name: String = "POSTS_LOG_LEVEL", default fallback: Logger.Level = .info) throws -> Logger.Level {
        guard let text = flag ?? environment[name], !text.isEmpty else { return fallback }
        guard let level = Logger.Level(rawValue: text.lowercased()) else {
            let names = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
            throw ConfigurationError("log level '\(text)' is not one of \(names)")
        }
        return level
    }

    static let longestDuration = Duration.seconds(86_400)

    /// "250ms", "2.5s", "1m"; a bare number is milliseconds. Nil for
    /// anything else, including values too large to be a sensible setting.
    public static func parseDuration(_ text: String) -> Duration? {
        let trimmed = text.trimmed().lowercased()
        let units: [(String, Double)] = [("ms", 1e-3), ("s", 1), ("m", 60)]
        let unit = units.first { trimmed.hasSuffix($0.0) } ?? ("", 1e-3)
        guard let number = Double(trimmed.dropLast(unit.0.count)), number.isFinite, number >= 0 else { return nil }
        let seconds = number * unit.1
        guard seconds <= 1e9 else { return nil }
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }
}

extension Duration {
    /// Milliseconds as a Double, for logs and JSON.
    public var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
