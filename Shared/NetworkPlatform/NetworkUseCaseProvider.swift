import Domain

/// The network platform: every use case as requests through the gateway.
public final class NetworkUseCaseProvider: UseCaseProvider {
    private let gateway: GatewayConnection

    /// `timeout` is per attempt; a request is tried `1 + retries` times.
    public init(endpoint: String, timeout: Duration = .seconds(3), retries: Int = 1) throws(PostsError) {
        gateway = try GatewayConnection(endpoint: endpoint, timeout: timeout, retries: retries)
    }

    public func makePostsUseCase() -> any PostsUseCase { NetworkPostsUseCase(gateway: gateway) }
    public func makePostChangesUseCase() -> any PostChangesUseCase { NetworkPostChangesUseCase(gateway: gateway) }
    public func makeStatusUseCase() -> any StatusUseCase { NetworkStatusUseCase(gateway: gateway) }
}
