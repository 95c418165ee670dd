import Domain

/// Domain's `PostStore` and `ChangeFeed` ports as calls of the `posts`
/// service's methods. A conforming type says only how a call is made (over
/// the gateway: NetworkPlatform's `GatewayPosts`); which method each port
/// requirement calls, and how, is written once, beside the method's
/// declaration, in PostsMethod.swift.
public protocol PostsServiceClient: PostStore, ChangeFeed {
    func call<Params, Result>(_ method: RPCMethod<Params, Result>, _ params: Params) async throws(PostsError) -> Result
    /// A write, under `key` on every attempt (a new key of its own when nil).
    func call<Params, Result>(_ write: RPCWrite<Params, Result>, _ params: Params, key: RequestKey?) async throws(PostsError) -> Result
}
