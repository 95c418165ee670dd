/// One JSON-RPC method that only reads, declared once: its name, the
/// service that answers it, and what its params and its result are. The
/// client sends through it (`GatewayConnection.call`) and a service
/// registers its handler by it (`JSONRPCRouter.on`), so the compiler holds
/// the two ends to the same types. Every method also takes `params._meta`
/// (`RequestMeta`): trace context and the request's time budget. A method
/// that writes is an `RPCWrite`.
public struct RPCMethod<Params: Codable & Sendable, Result: Codable & Sendable>: Sendable {
    /// `posts.get`: what the request's `method` member holds.
    public let name: String
    /// The 7/MDP service whose workers answer it.
    public let service: String
    /// Whether a successful call may change what the service holds (so
    /// change notices follow it, and a retry needs a request key). Only an
    /// `RPCWrite` makes one that does.
    public let writes: Bool
    /// What a request without params (absent or null) stands for; nil when
    /// params are required.
    public let defaultParams: Params?

    public init(_ name: String, service: String, defaultParams: Params? = nil) {
        self.init(name, service: service, writes: false, defaultParams: defaultParams)
    }

    package init(_ name: String, service: String, writes: Bool, defaultParams: Params?) {
        (self.name, self.service, self.writes, self.defaultParams) = (name, service, writes, defaultParams)
    }
}

extension RPCMethod where Params == NoParams {
    /// A method that takes no params: none, null or `{}` are the same.
    public init(_ name: String, service: String) {
        self.init(name, service: service, defaultParams: NoParams())
    }
}

/// A JSON-RPC method that may change what its service holds. Its request
/// key (`params._meta.requestKey`, Domain's `RequestKey`) is part of both
/// ends' signatures: the client's call takes one (`GatewayConnection`
/// makes one per call when given none) and the service's handler is given
/// the request's, so a new write cannot be sent or served without deciding
/// what a retry of it does.
public struct RPCWrite<Params: Codable & Sendable, Result: Codable & Sendable>: Sendable {
    /// The method as the router and the connection see it (`writes` set).
    public let method: RPCMethod<Params, Result>

    public init(_ name: String, service: String) {
        method = RPCMethod(name, service: service, writes: true, defaultParams: nil)
    }

    public var name: String { method.name }
    public var service: String { method.service }
}
