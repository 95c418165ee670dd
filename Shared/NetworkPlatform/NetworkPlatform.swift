import Domain
import ZeroMQ

/// The network platform: Domain's ports as requests through the gateway.
public enum NetworkPlatform {
    /// `timeout` is per attempt; a request is tried `1 + retries` times.
    /// Resending is safe for reads and saves (upserts), but a resent delete
    /// reports "not found" when the first one did delete: keep `retries` 0
    /// unless every call you make is idempotent.
    /// `events` is the event bus's subscribe endpoint, for live updates;
    /// without it changes are noticed by polling. `security` says which
    /// connections use CURVE, with which keys (ServiceSupport's
    /// SecuritySettings reads it from the settings).
    public static func connect(
        endpoint: String, events: String? = nil, timeout: Duration = .seconds(10),
        retries: Int = 0, security: Security = .none
    ) throws(PostsError) -> Platform {
        let context: Context
        do {
            context = try Context(security: security)
        } catch {
            throw .failed("cannot start ZeroMQ: \(error)")
        }
        let gateway = try GatewayConnection(endpoint: endpoint, timeout: timeout, retries: retries, context: context)
        let feed = GatewayChangeFeed(gateway: gateway)
        return Platform(
            store: GatewayPostStore(gateway: gateway), feed: feed, search: GatewaySearchEngine(gateway: gateway),
            status: GatewayStatusSource(gateway: gateway),
            watch: EventBusWatch(events: events, context: context, polling: PollingWatch(feed: feed, interval: .seconds(5))))
    }
}
