/// The result of `rpc.stats`, which every service's router answers itself
/// (JSON-RPC reserves the `rpc.` prefix for such methods): this process's
/// figures per method since it started, for `posts top`.
public struct ServerStats: Codable, Sendable, Equatable {
    public struct Method: Codable, Sendable, Equatable {
        public var method: String
        public var requests: Int
        /// Requests answered with an error.
        public var errors: Int
        /// Of the last 1,024 requests.
        public var p50Ms: Double?
        public var p99Ms: Double?

        public init(method: String, requests: Int, errors: Int, p50Ms: Double?, p99Ms: Double?) {
            (self.method, self.requests, self.errors, self.p50Ms, self.p99Ms) = (method, requests, errors, p50Ms, p99Ms)
        }
    }

    public var pid: Int32
    public var methods: [Method]

    public init(pid: Int32, methods: [Method]) { (self.pid, self.methods) = (pid, methods) }

    /// The descriptor of `rpc.stats` on `service`.
    public static func method(of service: String) -> RPCMethod<NoParams, ServerStats> {
        RPCMethod("rpc.stats", service: service)
    }
}
