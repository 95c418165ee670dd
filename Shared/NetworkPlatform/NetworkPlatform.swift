import Domain
import ZeroMQ

/// The network platform: Domain's ports as requests through the gateway.
public enum NetworkPlatform {
    /// `endpoints`: the gateways, side by side; requests go to one and move
    /// to the next when it dies (`MajordomoClient`). Every write carries a
    /// request key, so one sent again is applied once.
    /// `timeout` is per attempt; a request is tried `1 + retries` times.
    /// `events` are the event buses' subscribe endpoints, for live updates;
    /// without them changes are noticed by polling. `security` says which
    /// connections use CURVE, with which keys (ServiceSupport's
    /// SecuritySettings reads it from the settings).
    public static func connect(
        endpoints: [String], events: [String] = [], timeout: Duration = .seconds(10),
        retries: Int = 0, security: Security = .none
    ) throws(PostsError) -> Platform {
        let context: Context
        do {
            context = try Context(security: security)
        } catch {
            throw .failed("cannot start ZeroMQ: \(error)")
        }
        let gateway = try GatewayConnection(endpoints: endpoints, timeout: timeout, retries: retries, context: context)
        let posts = GatewayPosts(gateway: gateway)
        return Platform(
            store: posts, feed: posts, search: GatewaySearchEngine(gateway: gateway),
            status: GatewayStatusSource(gateway: gateway),
            watch: EventBusWatch(events: events, context: context, polling: PollingWatch(feed: posts, interval: .seconds(5))))
    }

    /// One gateway.
    public static func connect(
        endpoint: String, events: String? = nil, timeout: Duration = .seconds(10),
        retries: Int = 0, security: Security = .none
    ) throws(PostsError) -> Platform {
        try connect(endpoints: [endpoint], events: events.map { [$0] } ?? [], timeout: timeout, retries: retries, security: security)
    }
}
