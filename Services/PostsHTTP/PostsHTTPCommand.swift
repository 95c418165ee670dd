import ArgumentParser
import Domain
import Foundation
import Hummingbird
import Logging
import NetworkPlatform
import Observability
import OpenAPIHummingbird
import OpenAPIRuntime
import ServiceLifecycle
import ServiceSupport

@main
struct PostsHTTPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "posts-http",
        abstract: "The posts system over HTTP: the same use cases as the posts CLI, through the gateway.",
        discussion: """
            Serves the routes of its OpenAPI document (GET /openapi.json; docs/HTTP.md):
              GET /posts, POST /posts, GET /posts/count, GET|PUT|PATCH|DELETE /posts/{uid},
              GET /posts/changes (Server-Sent Events, resumed with Last-Event-ID),
              GET /search, GET /status, GET /healthz, GET /readyz
            JSON in and out; every error is application/problem+json (RFC 9457).
            Edits take If-Match (412 when the post changed since it was read), writes take
            Idempotency-Key (a write sent again is applied once), any request may say
            Request-Timeout (seconds, at most --timeout; 504 past it) and traceparent.

            Every flag has an environment variable; a flag wins over its variable:
              --listen         POSTS_HTTP_LISTEN    default 127.0.0.1:8080
              --gateway        POSTS_GATEWAY        default ipc://<runtime dir>/gateway.ipc (comma-separated: failover)
              --timeout        POSTS_HTTP_TIMEOUT   default 10 (seconds)
              --max-streams    POSTS_HTTP_MAX_STREAMS default 1000 (GET /posts/changes open at once)
              --log-level      POSTS_LOG_LEVEL      default info
              --curve-key, --gateway-key, --curve-ipc, --insecure: as for the posts CLI.

            Security: it listens on loopback unless told otherwise, and an address off
            loopback needs --insecure (POSTS_INSECURE=1): it has no TLS or tokens yet,
            so anyone who can reach the port can read and write every post.
            SIGTERM or SIGINT: stop taking connections, finish the requests in flight, exit 0.
            """
    )

    @Option(help: ArgumentHelp("Address to listen on, HOST:PORT (port 0: any free port, printed at start).", valueName: "address"))
    var listen: String?

    @Option(help: ArgumentHelp("Gateway endpoints, comma-separated: one is used, the next when it dies.", valueName: "endpoints"))
    var gateway: String?

    @Option(help: ArgumentHelp("Seconds a request may take at most, and when it says no Request-Timeout.", valueName: "seconds"))
    var timeout: Double?

    @Option(help: ArgumentHelp("Change streams (GET /posts/changes) open at once, at most; past it, 503.", valueName: "count"))
    var maxStreams: Int?

    @Option(help: ArgumentHelp("trace, debug, info, notice, warning, error or critical.", valueName: "level"))
    var logLevel: String?

    @OptionGroup var curve: CurveOptions

    func run() async throws {
        let settings = Settings()
        ParentWatch.startIfRequested(environment: settings.environment)
        LogSetup.bootstrap(level: try settings.logLevel(logLevel))
        let logger = Logger(label: "posts-http")
        let address = try ListenAddress(listen ?? settings.environment["POSTS_HTTP_LISTEN"] ?? ListenAddress.fallback)
        let insecure = curve.insecure || settings.environment["POSTS_INSECURE"] == "1"
        guard address.isLoopback || insecure else {
            throw ValidationError(
                "refusing to listen on \(address) without TLS and tokens: anyone who reaches it could read and write every post. "
                    + "Listen on loopback (127.0.0.1), or say --insecure (POSTS_INSECURE=1) to allow it anyway")
        }
        let seconds =
            try timeout ?? settings.environment["POSTS_HTTP_TIMEOUT"].map { text in
                guard let value = Double(text) else { throw ValidationError("POSTS_HTTP_TIMEOUT must be seconds, not '\(text)'") }
                return value
            } ?? 10
        guard Exchange.budgets.contains(seconds) else {
            throw ValidationError(
                "--timeout must be from \(Exchange.budgets.lowerBound) to \(Int(Exchange.budgets.upperBound)) seconds, not \(seconds)")
        }
        let endpoints = gateway.flatMap(Endpoints.list) ?? Endpoints.gateways(environment: settings.environment)
        guard !endpoints.isEmpty else { throw ValidationError("--gateway names no endpoint") }
        for endpoint in endpoints {
            do { try Endpoints.validate(endpoint) } catch { throw ValidationError("\(error)") }
        }
        let security: SecuritySettings
        do {
            security = try curve.resolve(settings, endpoints: endpoints)
        } catch let error as ConfigurationError {
            throw ValidationError(error.description)
        }
        let streams: Int
        do {
            streams = try settings.integer(maxStreams, env: "POSTS_HTTP_MAX_STREAMS", default: 1000)
        } catch let error as ConfigurationError {
            throw ValidationError(error.description)
        }
        let budget = Duration.milliseconds(Int64((seconds * 1000).rounded()))
        let events = Endpoints.eventsSubscribe(environment: settings.environment)
        let provider = UseCaseProvider(
            try NetworkPlatform.connect(endpoints: endpoints, events: events, timeout: budget, retries: 0, security: security.security))
        if insecure && !address.isLoopback {
            logger.warning("listening off loopback with no TLS and no tokens (--insecure)", metadata: ["address": "\(address)"])
        }

        let document = try Self.document()
        let heads = HeadBroadcast()
        let api = PostsAPI(
            posts: provider.makePostsUseCase(), search: provider.makeSearchUseCase(), status: provider.makeStatusUseCase(),
            changes: provider.makePostChangesUseCase(), heads: heads, subscribers: SubscriberCount(limit: streams), timeout: budget,
            document: document, logger: logger)
        let router = Router()
        router.add(middleware: RouterProblems(routes: Routes(document: document)))
        router.add(middleware: BodyLimit())
        try api.registerHandlers(
            on: router, configuration: Configuration(jsonEncodingOptions: EdgeJSON.options),
            middlewares: [RequestProblems(logger: logger)])
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = []
        if let exporter = try TracingStart.start(serviceName: "posts-http", environment: settings.environment) {
            services.append(.init(service: exporter))
        }
        let app = Application(
            router: router, configuration: .init(address: .hostname(address.host, port: address.port), serverName: "posts-http"),
            onServerRunning: { channel in
                // With port 0, the port the system gave.
                let bound = ListenAddress(host: address.host, port: channel.localAddress?.port ?? address.port)
                logger.notice("listening", metadata: ["url": "http://\(bound)"])
            }, logger: logger)
        services.append(.init(service: app))
        services.append(.init(service: HeadWatch(watch: provider.makeWatchUseCase(), heads: heads)))
        let group = ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }

    /// The OpenAPI document this server was generated from, as it serves it.
    static func document() throws -> OpenAPIObjectContainer {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json") else {
            throw ValidationError("openapi.json is missing beside the executable (in its resource bundle)")
        }
        return try JSONDecoder().decode(OpenAPIObjectContainer.self, from: Data(contentsOf: url))
    }
}

/// Where the edge listens: HOST:PORT, `[IPv6]:PORT` for an IPv6 address.
struct ListenAddress: CustomStringConvertible {
    static let fallback = "127.0.0.1:8080"
    let host: String
    let port: Int

    init(host: String, port: Int) { (self.host, self.port) = (host, port) }

    init(_ text: String) throws {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
            throw ValidationError("--listen must be HOST:PORT with a port from 0 to 65535 (got '\(text)')")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw ValidationError("--listen names no host (got '\(text)'); 127.0.0.1:8080 listens on loopback") }
        (self.host, self.port) = (host, port)
    }

    /// Only this machine can reach it.
    var isLoopback: Bool { host == "localhost" || host == "::1" || host.hasPrefix("127.") }

    var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// Hears of every change (the event bus, or the watch's poll) for the
/// change streams, for as long as the edge runs.
struct HeadWatch: Service {
    let watch: any PostsWatchUseCase
    let heads: HeadBroadcast

    func run() async throws {
        for await head in watch.changes().cancelOnGracefulShutdown() { heads.publish(head) }
    }
}
