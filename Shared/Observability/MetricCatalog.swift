/// Every metric this product exports, named once with its help text:
/// Prometheus names (units in the name, `_total` on counters), labels from
/// the OpenTelemetry RPC conventions (`rpc_service`, `rpc_method`), and no
/// label whose values a peer could multiply (uids, free text). The metric
/// code writes through swift-metrics by these names; docs/OPERATIONS.md
/// lists them.
public enum MetricCatalog {
    public struct Entry: Sendable {
        public let name: String
        public let help: String
    }

    // Every worker process (JSON-RPC server).
    public static let serverRequests = Entry(
        name: "rpc_server_requests_total",
        help: "Requests served, by service, method and outcome (ok or the JSON-RPC error's name).")
    public static let serverDuration = Entry(
        name: "rpc_server_duration_seconds",
        help: "Time from a request's arrival at the worker to its reply, by service and method.")
    public static let serverActive = Entry(name: "rpc_server_active_requests", help: "Requests being served now, by service.")

    // The gateway (7/MDP broker).
    public static let gatewayRequests = Entry(
        name: "gateway_requests_total",
        help: "Requests through the gateway, by service and outcome (answered, busy, unavailable, timeout, failed, shutting_down, malformed).")
    public static let gatewayQueueWait = Entry(
        name: "gateway_queue_wait_seconds",
        help: "Time a request waited in the gateway for a worker, by service.")
    public static let gatewayDuration = Entry(
        name: "gateway_request_duration_seconds",
        help: "Time from a request's arrival at the gateway to its answer, by service.")
    public static let gatewayQueueDepth = Entry(name: "gateway_queue_depth", help: "Requests waiting for a worker, by service.")
    public static let gatewayWorkers = Entry(name: "gateway_workers", help: "Worker processes registered, by service.")
    public static let gatewaySessions = Entry(name: "gateway_worker_sessions", help: "Worker sessions (MDP connections) registered, by service.")
    public static let gatewayExpiries = Entry(
        name: "gateway_worker_expiries_total",
        help: "Worker sessions forgotten after missing their heartbeats, by service.")
    public static let gatewayRequeues = Entry(
        name: "gateway_requeues_total",
        help: "Requests handed to another worker after theirs was lost, by service.")
    public static let gatewayLateReplies = Entry(
        name: "gateway_late_replies_total",
        help: "Worker replies dropped because their client had been answered timeout, by service.")
    public static let gatewayBuffered = Entry(
        name: "gateway_output_buffered_bytes",
        help: "Bytes written by the gateway and not yet taken by their peers, all peers together.")
    public static let gatewayPeerBufferedMax = Entry(
        name: "gateway_peer_output_buffered_max_bytes",
        help: "The most bytes waiting for any one peer.")
    public static let gatewayHeldBack = Entry(
        name: "gateway_peers_held_back",
        help: "Peers not read until they take what is waiting for them (POSTS_MAX_PEER_OUTPUT).")
    public static let gatewayConnections = Entry(name: "gateway_connections", help: "Plaintext ipc:// connections open.")

    // posts-service.
    public static let storeDuration = Entry(
        name: "posts_store_duration_seconds",
        help: "Time the posts store took, by operation.")

    // search-service.
    public static let searchDocuments = Entry(name: "search_documents", help: "Posts in this replica's index.")
    public static let searchApplied = Entry(name: "search_applied_sequence", help: "The last change sequence this replica applied.")
    public static let searchLag = Entry(name: "search_lag_changes", help: "Changes this replica has heard of and not yet applied.")
    public static let searchDelay = Entry(
        name: "search_index_delay_seconds",
        help: "Time from a post's save (its updateDate) to it being searchable on this replica.")

    // posts-http, the HTTP edge.
    public static let httpRequests = Entry(
        name: "http_server_requests_total",
        help: "HTTP requests answered, by method, route (the OpenAPI path template, or unmatched) and status.")
    public static let httpDuration = Entry(
        name: "http_server_request_duration_seconds",
        help: "Time from an HTTP request's arrival to its response's head, by method and route.")
    public static let httpConnections = Entry(name: "http_server_connections", help: "HTTP connections open.")
    public static let httpStreams = Entry(name: "http_server_change_streams", help: "Change streams (GET /posts/changes) open.")

    public static let all: [Entry] = [
        serverRequests, serverDuration, serverActive,
        gatewayRequests, gatewayQueueWait, gatewayDuration, gatewayQueueDepth, gatewayWorkers, gatewaySessions, gatewayExpiries,
        gatewayRequeues, gatewayLateReplies, gatewayBuffered, gatewayPeerBufferedMax, gatewayHeldBack, gatewayConnections,
        storeDuration, searchDocuments, searchApplied, searchLag, searchDelay,
        httpRequests, httpDuration, httpConnections, httpStreams,
    ]

    /// Help by name; a name not in the catalog gets its own name as help.
    static let help: [String: String] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0.help) })

    /// Bucket bounds of every duration histogram, 100 µs to 10 s: a
    /// request through the gateway takes from about 100 µs up.
    public static let durationBuckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .microseconds(2500), .milliseconds(5),
        .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
        .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
    ]
}
