import Domain

/// The network platform: every use case as requests through the gateway.
public final class NetworkUseCaseProvider: UseCaseProvider {
    private let gateway: GatewayConnection
    private let events: String?

    /// `timeout` is per attempt; a request is tried `1 + retries` times.
    /// Resending is safe for reads and saves (upserts), but a resent delete
    /// reports "not found" when the first one did delete: keep `retries` 0
    /// unless every call you make is idempotent.
    /// `events` is the event bus's subscribe endpoint, for live updates
    /// (`makeWatchUseCase`); without it changes are noticed by polling.
    public init(endpoint: String, events: String? = nil, timeout: Duration = .seconds(10), retries: Int = 0) throws(PostsError) {
        gateway = try GatewayConnection(endpoint: endpoint, timeout: timeout, retries: retries)
        self.events = events
    }

    public func makePostsUseCase() -> any PostsUseCase { NetworkPostsUseCase(gateway: gateway) }
    public func makePostChangesUseCase() -> any PostChangesUseCase { NetworkPostChangesUseCase(gateway: gateway) }
    public func makeStatusUseCase() -> any StatusUseCase { NetworkStatusUseCase(gateway: gateway) }
    public func makeSearchUseCase() -> any SearchUseCase { NetworkSearchUseCase(gateway: gateway) }
    public func makeWatchUseCase() -> any PostsWatchUseCase {
        NetworkWatchUseCase(events: events, polling: PollingWatch(changes: makePostChangesUseCase(), interval: .seconds(5)))
    }
}
