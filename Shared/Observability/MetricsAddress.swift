/// Where the metrics endpoint listens: `host:port` (`127.0.0.1:9464`,
/// `[::1]:9464`, `localhost:0` for a port of the system's choosing).
public struct MetricsAddress: Sendable, Equatable, CustomStringConvertible {
    public let host: String
    public let port: Int

    /// Nil, with the reason, for text that is not `host:port`.
    public static func parse(_ text: String) -> Result<MetricsAddress, MetricsAddressError> {
        guard let colon = text.lastIndex(of: ":") else { return .failure(.init(text: text, reason: "it has no ':port'")) }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { return .failure(.init(text: text, reason: "it names no host (127.0.0.1 keeps it on this machine)")) }
        guard let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
            return .failure(.init(text: text, reason: "its port is not a number from 0 to 65535"))
        }
        return .success(MetricsAddress(host: host, port: port))
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

public struct MetricsAddressError: Error, CustomStringConvertible {
    public let text: String
    public let reason: String
    public var description: String { "metrics address '\(text)' is not host:port: \(reason)" }
}
