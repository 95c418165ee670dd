/// One of the gateways a client was given, as `posts status` shows it:
/// whether it answered just now, and whether requests go to it.
public struct GatewayState: Sendable, Equatable, Codable {
    public var endpoint: String
    /// It answered the status question within the probe's time.
    public var up: Bool
    /// The gateway requests go to now (the one that answered last).
    public var inUse: Bool
    /// Since it started, when it answered.
    public var uptimeSeconds: Double?

    public init(endpoint: String, up: Bool, inUse: Bool, uptimeSeconds: Double? = nil) {
        (self.endpoint, self.up, self.inUse, self.uptimeSeconds) = (endpoint, up, inUse, uptimeSeconds)
    }
}
