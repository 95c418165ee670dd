import ArgumentParser
import Domain
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOPosix
import NetworkPlatform
import Observability
import OpenAPIHummingbird
import OpenAPIRuntime
import ServiceLifecycle
import ServiceSupport
import SystemSupport

@main
struct PostsHTTPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "posts-http",
        abstract: "The posts system over HTTP: the same use cases as the posts CLI, through the gateway.",
        usage: """
            posts-http [--listen <address>] [--gateway <endpoints>] [<options>]
            posts-http token <name> --tokens <path> [--write]
            """,
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
              --listen (POSTS_HTTP_LISTEN): 127.0.0.1:8080
              --gateway (POSTS_GATEWAY): ipc://<runtime dir>/gateway.ipc; A,B: failover
              --timeout (POSTS_HTTP_TIMEOUT): 10 seconds
              --max-connections (POSTS_HTTP_MAX_CONNECTIONS): 2000; past it, 503
              --max-streams (POSTS_HTTP_MAX_STREAMS): 1000 change streams; past it, 503
              --idle-timeout (POSTS_HTTP_IDLE_TIMEOUT): 60s with no request in flight
              --tls-cert, --tls-key (POSTS_HTTP_TLS_CERT, _KEY): none, plain HTTP
              --tokens (POSTS_HTTP_TOKENS): none, no token asked for
              --metrics (POSTS_METRICS): off
              --log-level (POSTS_LOG_LEVEL): info
              --curve-key, --gateway-key, --curve-ipc, --insecure: as for the posts CLI.
            A request's header is at most 16 KiB (431 past it), its body 1 MiB (413).

            Security: it listens on loopback unless told otherwise. An address off loopback
            needs TLS (--tls-cert, --tls-key) and a token list (--tokens; make tokens with
            posts-http token NAME --tokens FILE [--write]), or --insecure said out loud.
            With a token list, every request but /healthz and /readyz shows
            Authorization: Bearer TOKEN (401 without one); a read token cannot write (403).
            SIGHUP reads the token list again. SIGTERM or SIGINT: stop taking connections,
            finish the requests in flight, exit 0.
            """,
        subcommands: [TokenCommand.self]
    )

    @Option(help: ArgumentHelp("Address to listen on, HOST:PORT (port 0: any free port, printed at start).", valueName: "address"))
    var listen: String?

    @Option(help: ArgumentHelp("Gateway endpoints, comma-separated: one is used, the next when it dies.", valueName: "endpoints"))
    var gateway: String?

    @Option(help: ArgumentHelp("Seconds a request may take at most, and when it says no Request-Timeout.", valueName: "seconds"))
    var timeout: Double?

    @Option(help: ArgumentHelp("Connections open at once, at most; past it, 503.", valueName: "count"))
    var maxConnections: Int?

    @Option(help: ArgumentHelp("Change streams (GET /posts/changes) open at once, at most; past it, 503.", valueName: "count"))
    var maxStreams: Int?

    @Option(help: ArgumentHelp("How long a connection with no request in flight stays open (e.g. 60s).", valueName: "duration"))
    var idleTimeout: String?

    @Option(help: ArgumentHelp("TLS certificate chain, a PEM file.", valueName: "path"))
    var tlsCert: String?

    @Option(help: ArgumentHelp("TLS private key, a PEM file only its owner may read.", valueName: "path"))
    var tlsKey: String?

    @Option(help: ArgumentHelp("Token list: ask every request for one of its tokens (posts-http token makes them).", valueName: "path"))
    var tokens: String?

    @Option(help: ArgumentHelp("Serve metrics for Prometheus at host:port (POSTS_METRICS; default: off).", valueName: "host:port"))
    var metrics: String?

    @Option(help: ArgumentHelp("trace, debug, info, notice, warning, error or critical.", valueName: "level"))
    var logLevel: String?

    @OptionGroup var curve: CurveOptions

    func run() async throws {
        let environment = Settings()
        ParentWatch.startIfRequested(environment: environment.environment)
        LogSetup.bootstrap(level: try environment.logLevel(logLevel))
        let logger = Logger(label: "posts-http")
        let settings = try EdgeSettings(self, environment)
        let tls = try settings.tls.map(EdgeTLS.configuration)
        let tokens = try settings.tokens.map { path in
            let tokens = TokenList(path: path)
            do {
                TokenReload.report(try tokens.reload(), of: tokens, logger: logger)
            } catch let error as ConfigurationError {
                throw ValidationError(error.description)
            }
            return tokens
        }
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = []
        if let metrics = try await MetricsStart.start(settings.metrics, program: "posts-http", logger: logger) {
            services.append(.init(service: metrics))
        }
        let descriptors = DescriptorLimit.raise(logging: logger)
        let connections = OpenCount(
            limit: min(settings.maxConnections, max(1, descriptors.connections - OpenCount.refusals)), gauge: MetricCatalog.httpConnections)
        if connections.limit < settings.maxConnections {
            logger.warning(
                "serving fewer connections than --max-connections: the descriptor limit allows no more",
                metadata: ["connections": "\(connections.limit)", "descriptors": "\(descriptors.soft)"])
        }
        let provider = UseCaseProvider(
            try NetworkPlatform.connect(
                endpoints: settings.endpoints, events: Endpoints.eventsSubscribe(environment: environment.environment), timeout: settings.budget,
                retries: 0, security: settings.security.security))
        for warning in settings.warnings { logger.warning("\(warning)", metadata: ["address": "\(settings.address)"]) }
        if let tokens {
            services.append(.init(service: TokenReload(tokens: tokens, logger: logger)))
        }

        let document = try Self.document()
        let routes = Routes(document: document)
        let heads = HeadBroadcast()
        let api = PostsAPI(
            posts: provider.makePostsUseCase(), search: provider.makeSearchUseCase(), status: provider.makeStatusUseCase(),
            changes: provider.makePostChangesUseCase(), heads: heads,
            subscribers: OpenCount(limit: settings.maxStreams, gauge: MetricCatalog.httpStreams),
            timeout: settings.budget, document: document, logger: logger)
        let router = Router()
        if settings.metrics != nil { router.add(middleware: RequestMetrics(routes: routes)) }
        router.add(middleware: WholeResponses())
        router.add(middleware: RouterProblems(routes: routes))
        if let tokens { router.add(middleware: TokenCheck(tokens: tokens)) }
        router.add(middleware: BodyLimit())
        try api.registerHandlers(
            on: router, configuration: Configuration(jsonEncodingOptions: EdgeJSON.options),
            middlewares: [RequestProblems(logger: logger)])
        if let exporter = try TracingStart.start(serviceName: "posts-http", environment: environment.environment) {
            services.append(.init(service: exporter))
        }
        let http = HTTP1Channel.Configuration(
            additionalChannelHandlers: [ConnectionGuard(count: connections)], idleTimeout: .init(settings.idleTimeout),
            httpDecoderConfiguration: .init(
                maxHeaderFieldSize: ConnectionGuard.headerBytes, maxHeaderListSize: ConnectionGuard.headerBytes,
                maxHeaderFieldCount: ConnectionGuard.headerFields))
        let scheme = tls == nil ? "http" : "https"
        let loops = MultiThreadedEventLoopGroup.singleton
        let executors = LoopExecutors(loops)
        let server = HTTPServerBuilder { responder in OnItsLoop(base: HTTP1Channel(responder: responder, configuration: http), executors: executors) }
        let app = Application(
            router: router, server: try tls.map { try .tls(server, tlsConfiguration: $0) } ?? server,
            configuration: .init(
                address: .hostname(settings.address.host, port: settings.address.port), serverName: "posts-http",
                availableConnectionsDelegate: .maximum(connections.ceiling, logger: logger)),
            onServerRunning: { channel in
                // With port 0, the port the system gave.
                let bound = ListenAddress(host: settings.address.host, port: channel.localAddress?.port ?? settings.address.port)
                logger.notice("listening", metadata: ["url": "\(scheme)://\(bound)", "tokens": "\(tokens == nil ? "off" : "on")"])
            }, eventLoopGroupProvider: .shared(loops), logger: logger)
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
