import Domain
import Wire

/// Domain's `PostStore` and `ChangeFeed` ports as requests to the `posts`
/// service through the gateway. Which method each requirement calls is
/// `PostsServiceClient`'s, written beside each method in Wire's
/// PostsMethod.swift; this says only that the call goes through the gateway.
struct GatewayPosts: PostsServiceClient {
    let gateway: GatewayConnection

    func call<Params, Result>(_ method: RPCMethod<Params, Result>, _ params: Params) async throws(PostsError) -> Result {
        try await gateway.call(method, params)
    }

    func call<Params, Result>(_ write: RPCWrite<Params, Result>, _ params: Params, key: RequestKey?) async throws(PostsError) -> Result {
        try await gateway.call(write, params, key: key)
    }
}
