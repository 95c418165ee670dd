import Logging
import ZeroMQ

/// A 7/MDP client with async/await: one DEALER socket, any number of
/// requests in flight, a timeout per request, and Lazy Pirate retries on a
/// fresh socket when a reply does not come.
///
/// MDP carries no request id, so replies are matched by `correlationID`:
/// the caller names each request's id and supplies a function that reads
/// the id back out of a reply body (JSON-RPC's "id", in this product). A
/// reply without one goes to the oldest request for the same service, which
/// is how 8/MMI's plain "200"/"404" answers are matched.
///
/// Several brokers (18/MDP's brokers side by side): requests go to one,
/// the one that answered last, and move, with every request in flight, to
/// the next as soon as it is known dead: its connection closed, its ZMTP
/// heartbeats unanswered past `heartbeatTimeout`, no connection within
/// `connectWait`, or a reply saying it is going away (`isLeaving`). A
/// request sent again must be safe to apply twice, or carry a key that
/// makes it so (this product's request keys).
public final class MajordomoClient: Sendable {
    public struct Configuration: Sendable {
        /// How long to wait for each reply before retrying.
        public var timeout: Duration = .seconds(3)
        /// Extra attempts, each on a new socket, before giving up.
        public var retries = 2
        /// With several brokers: how long a connection may take to come up
        /// (its handshake done) while requests wait, before the next broker
        /// is tried.
        public var connectWait: Duration = .milliseconds(500)
        /// How long requests wait for the first connection to any broker
        /// (its socket connected) before they fail with `.unreachable`: how a
        /// caller tells "nobody is there" from a slow reply without asking
        /// first. Once a connection has been up, requests wait out their
        /// own timeouts instead (a broker restarting comes back). Nil: they
        /// always do.
        public var firstConnectionWait: Duration?
        /// ZMTP PINGs on the connection, and the silence after one past
        /// which the broker is taken as dead (requests in flight are then
        /// sent again: to the next broker, or on a new connection).
        public var heartbeatInterval: Duration = .milliseconds(200)
        public var heartbeatTimeout: Duration = .milliseconds(600)
        /// With several brokers: whether a reply says that its broker is
        /// going away (shutting down); the request then goes to the next
        /// broker instead of being delivered, once per broker at most.
        public var isLeaving: (@Sendable (_ body: [Frame]) -> Bool)?
        /// A request's body with its time budget set to what is left, for
        /// a request sent again to another broker; nil sends it as it was.
        public var rebudget: (@Sendable (_ body: [Frame], _ remaining: Duration) -> [Frame])?
        public init() {}
    }

    public typealias Correlator = @Sendable (_ body: [Frame]) -> String?

    /// The brokers, in the order they are tried.
    public let endpoints: [String]
    private let engine: ClientEngine

    /// Throws when an endpoint is not a valid ZeroMQ endpoint. Connecting
    /// is lazy: an endpoint nobody listens on shows up as timeouts (one
    /// broker) or as a move to the next (several).
    public init(
        endpoints: [String], configuration: Configuration = .init(), context: Context,
        logger: Logger = Logger(label: "mdp.client"), correlationID: @escaping Correlator
    ) throws {
        precondition(!endpoints.isEmpty, "a client needs a broker")
        // Checked here, on the caller's thread, so a typo fails at once.
        try context.checkConnectable(endpoints, as: .dealer)
        self.endpoints = endpoints
        engine = ClientEngine(
            endpoints: endpoints, configuration: configuration, context: context,
            logger: logger, correlator: correlationID
        )
        engine.start()
    }

    public convenience init(
        endpoint: String, configuration: Configuration = .init(), context: Context,
        logger: Logger = Logger(label: "mdp.client"), correlationID: @escaping Correlator
    ) throws {
        try self.init(endpoints: [endpoint], configuration: configuration, context: context, logger: logger, correlationID: correlationID)
    }

    deinit { engine.close() }

    /// Sends `body` to `service` and waits for the reply body.
    public func request(
        service: String, body: [Frame], correlationID: String?, timeout: Duration? = nil
    ) async throws -> [Frame] {
        try await engine.request(service: service, body: body, correlationID: correlationID, timeout: timeout)
    }

    /// The broker requests go to now.
    public var endpoint: String { endpoints[engine.currentIndex] }

    /// Why the security handshake with the broker last failed, if it did
    /// and has not succeeded since (watched on tcp://, and on ipc:// with
    /// CURVE): how a caller tells "refused" from "no answer".
    public var handshakeFailure: HandshakeEvent? { engine.handshakes.failure }

    /// Whether a connection to a broker has been made (its socket
    /// connected): a request that timed out before one was tells "nobody
    /// is there".
    public var hasConnected: Bool { engine.connectedOnce.load(ordering: .relaxed) }

    /// Fails every request in flight with `.closed` and releases the socket.
    public func close() { engine.close() }
}
