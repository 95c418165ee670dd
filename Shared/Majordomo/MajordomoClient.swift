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
public final class MajordomoClient: Sendable {
    public struct Configuration: Sendable {
        /// How long to wait for each reply before retrying.
        public var timeout: Duration = .seconds(3)
        /// Extra attempts, each on a new socket, before giving up.
        public var retries = 2
        public init() {}
    }

    public typealias Correlator = @Sendable (_ body: [Frame]) -> String?

    public let endpoint: String
    private let engine: ClientEngine

    /// Throws when `endpoint` is not a valid ZeroMQ endpoint. Connecting is
    /// lazy: an endpoint nobody listens on shows up as timeouts.
    public init(
        endpoint: String, configuration: Configuration = .init(), context: Context,
        logger: Logger = Logger(label: "mdp.client"), correlationID: @escaping Correlator
    ) throws {
        // Checked here, on the caller's thread, so a typo fails at once.
        try Socket(context, .dealer).connect(endpoint)
        self.endpoint = endpoint
        engine = ClientEngine(
            endpoint: endpoint, configuration: configuration, context: context,
            logger: logger, correlator: correlationID
        )
        engine.start()
    }

    deinit { engine.close() }

    /// Sends `body` to `service` and waits for the reply body.
    public func request(
        service: String, body: [Frame], correlationID: String?, timeout: Duration? = nil
    ) async throws -> [Frame] {
        try await engine.request(service: service, body: body, correlationID: correlationID, timeout: timeout)
    }

    /// Why the security handshake with the broker last failed, if it did
    /// and has not succeeded since (watched on tcp://, and on ipc:// with
    /// CURVE): how a caller tells "refused" from "no answer".
    public var handshakeFailure: HandshakeEvent? { engine.handshakes.failure }

    /// Fails every request in flight with `.closed` and releases the socket.
    public func close() { engine.close() }
}
