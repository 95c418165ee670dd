/// One JSON-RPC method, declared once: its name, the service that answers
/// it, what its params and its result are, and whether it changes anything.
/// The client sends through it (`GatewayConnection.call`) and a service
/// registers its handler by it (`JSONRPCRouter.on`), so the compiler holds
/// the two ends to the same types. Every method also takes `params._meta`
/// (`RequestMeta`): trace context and the request's time budget.
public struct RPCMethod<Params: Codable & Sendable, Result: Codable & Sendable>: Sendable {
    /// `posts.get`: what the request's `method` member holds.
    public let name: String
    /// The 7/MDP service whose workers answer it.
    public let service: String
    /// Whether a successful call may change what the service holds (so
    /// change notices follow it, and a retry needs a request key).
    public let writes: Bool
    /// What a request without params (absent or null) stands for; nil when
    /// params are required.
    public let defaultParams: Params?

    public init(_ name: String, service: String, writes: Bool = false, defaultParams: Params? = nil) {
        (self.name, self.service, self.writes, self.defaultParams) = (name, service, writes, defaultParams)
    }
}

extension RPCMethod where Params == NoParams {
    /// A method that takes no params: none, null or `{}` are the same.
    public init(_ name: String, service: String, writes: Bool = false) {
        self.init(name, service: service, writes: writes, defaultParams: NoParams())
    }
}
