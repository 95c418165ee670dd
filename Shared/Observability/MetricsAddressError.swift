public struct MetricsAddressError: Error, CustomStringConvertible {
    public let text: String
    public let reason: String
    public var description: String { "metrics address '\(text)' is not host:port: \(reason)" }
}
