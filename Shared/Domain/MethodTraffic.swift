/// One method of one service, over every process serving it: requests
/// and errors since each process started, and its recent latency (the
/// slowest process's), from each process's own count (`posts top`).
public struct MethodTraffic: Sendable, Equatable, Codable {
    public var service: String
    public var method: String
    public var requests: Int
    public var errors: Int
    public var p50Milliseconds: Double?
    public var p99Milliseconds: Double?

    public init(service: String, method: String, requests: Int, errors: Int, p50Milliseconds: Double?, p99Milliseconds: Double?) {
        (self.service, self.method, self.requests, self.errors) = (service, method, requests, errors)
        (self.p50Milliseconds, self.p99Milliseconds) = (p50Milliseconds, p99Milliseconds)
    }
}
