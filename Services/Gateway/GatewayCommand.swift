import ArgumentParser
import EventBus
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Majordomo
import Observability
import ServiceLifecycle
import ServiceSupport
import SystemSupport
import ZeroMQ

@main
struct GatewayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gateway",
        abstract: "Majordomo (7/MDP) broker that routes JSON-RPC requests to workers by service name.",
        discussion: """
            With no settings at all it binds ipc://<runtime dir>/gateway.ipc, where the
            runtime dir is POSTS_RUNTIME_DIR, else $XDG_RUNTIME_DIR/posts, else
            /tmp/posts-<uid> (created with mode 0700).

            Every flag has an environment variable; a flag wins over its variable:
              --bind                POSTS_GATEWAY_BIND (comma-separated), else POSTS_GATEWAY
              --events-publish      POSTS_EVENTS_PUBLISH       default ipc://<runtime dir>/events-publish.ipc
              --events-subscribe    POSTS_EVENTS_SUBSCRIBE     default ipc://<runtime dir>/events-subscribe.ipc
              --heartbeat-interval  POSTS_HEARTBEAT_INTERVAL   default 2500ms
              --heartbeat-liveness  POSTS_HEARTBEAT_LIVENESS   default 3
              --queue-wait          POSTS_QUEUE_WAIT           default 5s
              --queue-limit         POSTS_QUEUE_LIMIT          default 10000
              --client-limit        POSTS_CLIENT_LIMIT         default 1000
              --service-limit       POSTS_SERVICE_LIMIT        default 1000
              --max-frame-size      POSTS_MAX_FRAME_SIZE       default 16777216 (at least 1024)
              --max-connections     POSTS_MAX_CONNECTIONS      default: the descriptor limit less an eighth (at least 64 kept)
              --max-peer-output     POSTS_MAX_PEER_OUTPUT      default 1048576 (at least 65536)
              --message-timeout     POSTS_MESSAGE_TIMEOUT      default 30s
              --shutdown-grace      POSTS_SHUTDOWN_GRACE       default 2s
              --log-level           POSTS_LOG_LEVEL            default info
              --curve-key           POSTS_CURVE_KEY            the gateway's secret-key file (0600)
              --curve-allow         POSTS_CURVE_ALLOW          directory of the public keys (NAME.key) admitted
              --curve-ipc           POSTS_CURVE_IPC=1          CURVE on ipc:// endpoints too
              --insecure            POSTS_INSECURE=1           allow tcp:// without CURVE (logged as a warning)
              (none)                POSTS_ZMTP                 own (default) or libzmq: who carries plaintext ipc:// and tcp://

            Security: every tcp:// endpoint (the gateway's and the event bus's) uses
            CURVE, and only peers whose public key is in the allow-list directory are
            served; binding tcp:// with no key refuses to start unless --insecure.
            Make keys with `posts keys generate NAME --dir DIR`. SIGHUP reads the
            allow-list again without a restart. ipc:// is guarded by its 0700 directory.
            A service with no worker and nothing waiting is forgotten after the queue
            wait; past the service limit, READY for a new service gets DISCONNECT.

            Bounds (docs/OPERATIONS.md, "Bounds"): on plaintext ipc:// and tcp:// a peer with more
            than --max-peer-output bytes waiting for it is not read until half are
            written; a message may hold --max-frame-size plus 64 KiB in all, and must
            arrive whole within --message-timeout of its first byte; past --max-connections a new
            connection is closed at once and accepting rests for 100 ms. At start the
            soft file descriptor limit is raised to the hard one and logged.

            The event bus: services publish to --events-publish (an XSUB socket),
            subscribers connect to --events-subscribe (an XPUB socket).
            Durations take ms, s or m (2500ms, 2.5s, 1m); a bare number is ms.
            SIGTERM or SIGINT: stop taking requests (waiting ones are answered "service
            unavailable"), wait up to the shutdown grace for requests already with
            workers, send DISCONNECT to workers, exit 0.
            Protocol and introspection (mmi.service, mmi.status, mmi.services,
            mmi.workers): docs/PROTOCOL.md.
            """
    )

    @Option(name: .customLong("bind"), help: ArgumentHelp("Endpoint to bind; repeat for several.", valueName: "endpoint"))
    var bind: [String] = []

    @Option(help: ArgumentHelp("Event bus endpoint publishers connect to (bound here).", valueName: "endpoint"))
    var eventsPublish: String?

    @Option(help: ArgumentHelp("Event bus endpoint subscribers connect to (bound here).", valueName: "endpoint"))
    var eventsSubscribe: String?

    @Option(help: ArgumentHelp("How often heartbeats are sent.", valueName: "duration"))
    var heartbeatInterval: String?

    @Option(help: ArgumentHelp("Missed heartbeats before a worker is expired.", valueName: "count"))
    var heartbeatLiveness: Int?

    @Option(help: ArgumentHelp("How long a request waits for a worker before 'service unavailable'.", valueName: "duration"))
    var queueWait: String?

    @Option(help: ArgumentHelp("Requests one service may have waiting before 'busy'.", valueName: "count"))
    var queueLimit: Int?

    @Option(help: ArgumentHelp("Requests one client may have outstanding before 'busy'.", valueName: "count"))
    var clientLimit: Int?

    @Option(help: ArgumentHelp("Services tracked at most; READY for one more is refused.", valueName: "count"))
    var serviceLimit: Int?

    @Option(help: ArgumentHelp("The gateway's CURVE secret-key file.", valueName: "path"))
    var curveKey: String?

    @Option(help: ArgumentHelp("Directory of the public keys (NAME.key files) admitted over CURVE.", valueName: "directory"))
    var curveAllow: String?

    @Flag(help: "Use CURVE on ipc:// endpoints too.")
    var curveIpc = false

    @Flag(help: "Allow tcp:// endpoints without CURVE: plaintext, anyone may connect.")
    var insecure = false

    @Option(help: ArgumentHelp("Largest frame accepted, in bytes; a sender of a larger one is disconnected.", valueName: "bytes"))
    var maxFrameSize: Int?

    @Option(help: ArgumentHelp("Connections held at once on plaintext ipc://; past it new ones are closed.", valueName: "count"))
    var maxConnections: Int?

    @Option(help: ArgumentHelp("Bytes waiting for one peer past which it is not read (plaintext ipc://).", valueName: "bytes"))
    var maxPeerOutput: Int?

    @Option(help: ArgumentHelp("How long a message may take to arrive whole once begun (plaintext ipc://).", valueName: "duration"))
    var messageTimeout: String?

    @Option(help: ArgumentHelp("On SIGTERM, how long to wait for requests already with workers.", valueName: "duration"))
    var shutdownGrace: String?

    @Option(help: ArgumentHelp("trace, debug, info, notice, warning, error or critical.", valueName: "level"))
    var logLevel: String?

    @Option(help: ArgumentHelp("Serve metrics for Prometheus at host:port (POSTS_METRICS; default: off).", valueName: "host:port"))
    var metrics: String?

    func run() async throws {
        let settings = Settings()
        ParentWatch.startIfRequested(environment: settings.environment)
        var options: Broker.Options
        var busOptions: EventBus.Options
        let security: SecuritySettings
        let allowList: AllowList?
        let metricsAddress: MetricsAddress?
        let context: Context
        do {
            metricsAddress = try settings.metricsAddress(metrics)
            options = try brokerOptions(settings)
            busOptions = try eventBusOptions(settings)
            LogSetup.bootstrap(level: try settings.logLevel(logLevel))
            let descriptors = DescriptorLimit.raise(logging: Logger(label: "gateway"))
            // One budget for the broker's and the event bus's connections.
            let budget = ConnectionBudget(limit: try connectionLimit(settings) ?? descriptors.connections)
            options.connections = budget
            busOptions.connections = budget
            busOptions.limits.messageTimeout = options.messageTimeout
            Logger(label: "gateway").info(
                "connection limit",
                metadata: [
                    "maxConnections": "\(budget.limit)",
                    "maxPeerOutput": "\(options.maxPeerOutput)",
                ])
            security = try SecuritySettings.gateway(
                settings, curveKey: curveKey, allow: curveAllow, insecure: insecure, curveOnIPC: curveIpc,
                endpoints: options.endpoints + busOptions.publishEndpoints + busOptions.subscribeEndpoints)
            allowList = try security.allowDirectory.map { try AllowList(directory: $0) }
            context = try settings.context(security: security.security)
        } catch let error as ConfigurationError {
            throw ValidationError(error.description)
        }
        let live = LiveEndpoint.served(options.endpoints + busOptions.publishEndpoints + busOptions.subscribeEndpoints)
        guard live.isEmpty else {
            StandardError.write(
                "gateway: \(live.joined(separator: ", ")) already served by a running gateway; stop it first, or bind other endpoints (--bind, "
                    + "--events-publish, --events-subscribe)\n"
            )
            throw ExitCode.failure
        }
        let logger = Logger(label: "gateway")
        if let warning = security.warning { logger.warning("\(warning)") }
        context.logLibzmqUse(options.endpoints + busOptions.publishEndpoints + busOptions.subscribeEndpoints, binding: true, logger: logger)
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = []
        if let allowList {
            // Bound before any CURVE socket, so no handshake goes unchecked.
            let admission = Admission(allowList: allowList, logger: logger)
            _ = try ZAPHandler.start(context: context, decide: admission.decide)
            logger.info(
                "CURVE on",
                metadata: [
                    "allowed keys": "\(allowList.count)", "allowList": "\(allowList.directory)",
                    "fingerprint": "\(Curve.fingerprint(security.security.keys!.publicKey))",
                ])
            services.append(.init(service: AllowListReloadService(admission: admission)))
        }
        if let endpoint = try await MetricsStart.start(metricsAddress, program: "gateway", logger: logger) {
            services.append(.init(service: endpoint))
        }
        if let exporter = try TracingStart.start(serviceName: "gateway", environment: settings.environment) {
            services.insert(.init(service: exporter), at: 0)  // first in, last out: it sends the last spans
        }
        let broker = Broker(
            options: options, replies: JSONRPCBrokerReplies(),
            tracing: TracingStart.isRequested(settings.environment) ? GatewayTracing() : nil, context: context, logger: logger)
        let bus = EventBus(options: busOptions, context: context, logger: logger)
        let group = ServiceGroup(
            configuration: .init(
                services: [
                    .init(service: BrokerService(broker: broker, logger: logger)),
                    .init(service: EventBusService(bus: bus, logger: logger)),
                ] + services,
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            ))
        do {
            try await group.run()
        } catch let error as ZMQError {
            StandardError.write("gateway: \(error)\n")
            throw ExitCode.failure
        }
    }

    private func eventBusOptions(_ settings: Settings) throws -> EventBus.Options {
        let environment = settings.environment
        let publish =
            try eventsPublish
            ?? Endpoints.own(Endpoints.eventsPublish(environment: environment), variable: "POSTS_EVENTS_PUBLISH", flag: "--events-publish")
        let subscribe =
            try eventsSubscribe
            ?? Endpoints.own(Endpoints.eventsSubscribe(environment: environment), variable: "POSTS_EVENTS_SUBSCRIBE", flag: "--events-subscribe")
        for endpoint in [publish, subscribe] { try Endpoints.validate(endpoint) }
        try RuntimeDirectory.prepare(endpoints: [publish, subscribe], environment: environment)
        return EventBus.Options(publishEndpoints: [publish], subscribeEndpoints: [subscribe])
    }

    /// --max-connections or POSTS_MAX_CONNECTIONS, when given.
    private func connectionLimit(_ settings: Settings) throws -> Int? {
        guard maxConnections != nil || settings.environment["POSTS_MAX_CONNECTIONS"] != nil else { return nil }
        return try settings.integer(maxConnections, env: "POSTS_MAX_CONNECTIONS", default: 1)
    }

    private func brokerOptions(_ settings: Settings) throws -> Broker.Options {
        let environment = settings.environment
        let endpoints = bind.isEmpty ? try Endpoints.gatewayBind(environment: environment) : bind
        for endpoint in endpoints { try Endpoints.validate(endpoint) }
        try RuntimeDirectory.prepare(endpoints: endpoints, environment: environment)
        var options = Broker.Options(endpoints: endpoints)
        var configuration = BrokerConfiguration()
        configuration.heartbeatInterval = try settings.duration(
            heartbeatInterval, env: "POSTS_HEARTBEAT_INTERVAL", default: configuration.heartbeatInterval)
        configuration.heartbeatLiveness = try settings.integer(
            heartbeatLiveness, env: "POSTS_HEARTBEAT_LIVENESS", default: configuration.heartbeatLiveness)
        configuration.queueWait = try settings.duration(queueWait, env: "POSTS_QUEUE_WAIT", default: configuration.queueWait)
        configuration.queueLimit = try settings.integer(queueLimit, env: "POSTS_QUEUE_LIMIT", default: configuration.queueLimit)
        configuration.clientLimit = try settings.integer(clientLimit, env: "POSTS_CLIENT_LIMIT", default: configuration.clientLimit)
        configuration.serviceLimit = try settings.integer(serviceLimit, env: "POSTS_SERVICE_LIMIT", default: configuration.serviceLimit)
        configuration.shutdownGrace = try settings.duration(shutdownGrace, env: "POSTS_SHUTDOWN_GRACE", default: configuration.shutdownGrace)
        options.configuration = configuration
        options.maxFrameSize = Int64(try settings.maxFrameSize(maxFrameSize))
        options.messageTimeout = try settings.duration(messageTimeout, env: "POSTS_MESSAGE_TIMEOUT", default: options.messageTimeout)
        options.maxPeerOutput = try settings.integer(
            maxPeerOutput, env: "POSTS_MAX_PEER_OUTPUT", default: options.maxPeerOutput,
            minimum: 1 << 16)
        return options
    }
}
