import ArgumentParser
import Domain
import EventBus
import Foundation
import LocalPlatform
import Logging
import Observability
import Majordomo
import PostgresPlatform
import ServiceLifecycle
import ServiceSupport
import Wire
import ZeroMQ

@main
struct PostsServiceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "posts-service",
        abstract: "MDP worker for service 'posts': owns the posts, in a SQLite file or on PostgreSQL.",
        discussion: """
            Methods: \(PostsMethod.names.joined(separator: ", ")), rpc.stats (docs/PROTOCOL.md).

            Every flag has an environment variable; a flag wins over its variable:
              --gateway             POSTS_GATEWAY              default ipc://<runtime dir>/gateway.ipc
              --database            POSTS_DATABASE             default $XDG_DATA_HOME/posts/posts.sqlite
                                    (or POSTS_DATA_DIR/posts.sqlite, ~/.local/share/posts/posts.sqlite)
              --database-url        POSTS_DATABASE_URL         postgres://user[:password]@host[:port]/database:
                                    the posts on PostgreSQL, shared by posts-service on any number of hosts
                                    (schema made at start); unset: the SQLite file above
              --sessions            POSTS_SESSIONS             default 4
              --credit              POSTS_CREDIT               default 2: requests each session takes at once (4 x 2 = its 8 PostgreSQL connections)
              --threads             POSTS_WORKER_THREADS       default one per core, at most one per session
              --events-publish      POSTS_EVENTS_PUBLISH       default ipc://<runtime dir>/events-publish.ipc
              --heartbeat-interval  POSTS_HEARTBEAT_INTERVAL   default 2500ms
              --max-frame-size      POSTS_MAX_FRAME_SIZE       default 16777216, as the gateway's
                                    (pages are cut to fit; a single bigger reply is error -32005)
              --log-level           POSTS_LOG_LEVEL            default info
              --curve-key           POSTS_CURVE_KEY            this process's CURVE secret-key file (tcp://)
              --gateway-key         POSTS_GATEWAY_KEY          the gateway's public key, Z85 text or file
              --curve-ipc           POSTS_CURVE_IPC=1          CURVE on ipc:// endpoints too
              --insecure            POSTS_INSECURE=1           allow tcp:// without CURVE (plaintext)
              (none)                POSTS_ZMTP                 own (default) or libzmq: who carries plaintext ipc:// and tcp://
            After every committed write it publishes {"service":"posts","head":N} on
            topic posts.changed. Several posts-service processes may share one database file.
            SIGTERM: finish the requests in hand, tell the gateway DISCONNECT, exit 0.
            """
    )

    @OptionGroup var worker: WorkerOptions
    @Option(help: ArgumentHelp("SQLite database file.", valueName: "path")) var database: String?
    @Option(help: ArgumentHelp("PostgreSQL database, postgres://user@host:port/name (instead of a SQLite file).", valueName: "url")) var databaseUrl:
        String?
    @Option(help: ArgumentHelp("Event bus endpoints to publish change notices to, comma-separated.", valueName: "endpoints"))
    var eventsPublish: String?

    func run() async throws {
        let settings = Settings()
        ParentWatch.startIfRequested(environment: settings.environment)
        let eventsEndpoints = try WorkerOptions.endpoints(
            eventsPublish, flag: "--events-publish", else: Endpoints.eventsPublish(environment: settings.environment))
        let resolved = try worker.resolve(settings, defaultSessions: 4, defaultCredit: 2, events: eventsEndpoints)
        let (endpoints, configuration, maxReplyBytes) = (resolved.endpoints, resolved.configuration, resolved.maxReplyBytes)
        let logger = Logger(label: "posts-service")
        // First: every metric made after it is a real one, not a no-op.
        let metrics = try await MetricsStart.start(resolved.metrics, program: "posts-service", logger: logger)
        let tracing = try TracingStart.start(serviceName: "posts-service", environment: settings.environment)
        let (provider, path) = try await openPosts(settings, timers: metrics != nil ? StoreTimers() : nil, logger: logger)
        let context = resolved.context
        let events = try EventPublisher(endpoints: eventsEndpoints, context: context, logger: logger)
        let router = PostsRouter(
            posts: provider.makePostsUseCase(), changes: provider.makePostChangesUseCase(),
            events: events, maxReplyBytes: maxReplyBytes, logger: logger)
        let mdpWorker = MajordomoWorker(
            endpoints: endpoints, service: PostsMethod.service, configuration: configuration,
            context: context, logger: logger)
        logger.info(
            "posts-service starting",
            metadata: ["database": "\(path)", "gateway": "\(endpoints.joined(separator: ","))", "sessions": "\(configuration.sessions)"])
        // First in, last out: the span exporter sends the last spans.
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = tracing.map { [.init(service: $0)] } ?? []
        if let metrics { services.append(.init(service: metrics)) }
        services.append(
            .init(service: WorkerService(worker: mdpWorker, handler: BodyHandler(router.handle(frame:), refusing: JSONRPC.wrongFrameCount).worker)))
        let group = ServiceGroup(
            configuration: .init(
                services: services,
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger
            ))
        defer { events.close() }
        try await group.run()
    }

    /// The posts: on PostgreSQL when a URL is given, else in the SQLite file.
    /// `timers`, given when metrics are served, times each store operation
    /// (`posts_store_duration_seconds`).
    private func openPosts(_ settings: Settings, timers: StoreTimers?, logger: Logger) async throws -> (UseCaseProvider, String) {
        if database != nil, databaseUrl != nil { throw ValidationError("--database and --database-url name two different stores; give one") }
        do {
            if let text = databaseUrl ?? (database == nil ? settings.value("POSTS_DATABASE_URL") : nil) {
                let url: DatabaseURL
                do { url = try DatabaseURL(text) } catch { throw ValidationError("POSTS_DATABASE_URL / --database-url: \(error)") }
                // Secure by default, as over tcp:// to the gateway: the posts
                // cross a network unencrypted only when asked to.
                if url.isPlaintextAcrossNetwork {
                    guard try worker.curve.insecure || settings.flag(env: "POSTS_INSECURE") else {
                        throw ValidationError(
                            "\(url): another host, and no TLS: every post would cross the network in plaintext. Add "
                                + "sslmode=verify-full&sslrootcert=CA.pem to the URL (docs/OPERATIONS.md), or give --insecure (POSTS_INSECURE=1)"
                        )
                    }
                    logger.warning("--insecure: posts cross the network to PostgreSQL in plaintext", metadata: ["database": "\(url)"])
                }
                // Never searched here (search workers do): an index in memory stands for it.
                let index = try SQLiteSearchIndex()
                return (
                    UseCaseProvider(try await PostgresPlatform.open(url: url, searchIndex: index, timers: timers, logger: logger)),
                    url.description
                )
            }
            let path = database ?? settings.defaultDatabasePath
            let provider = UseCaseProvider(try LocalPlatform.open(path: path, searchIndex: .memory, timers: timers))
            if let warning = LocalPlatform.accessWarning(path: path) { logger.warning("\(warning)") }
            return (provider, path)
        } catch let error as PostsError {
            StandardError.write("posts-service: \(error)\n")
            throw ExitCode.failure
        }
    }
}
