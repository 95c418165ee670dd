import ArgumentParser
import EventBus
import Foundation
import Logging
import Majordomo
import ServiceLifecycle
import ServiceSupport
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
          --max-frame-size      POSTS_MAX_FRAME_SIZE       default 16777216 (at least 1024)
          --shutdown-grace      POSTS_SHUTDOWN_GRACE       default 2s
          --log-level           POSTS_LOG_LEVEL            default info

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

    @Option(help: ArgumentHelp("Largest frame accepted, in bytes; a sender of a larger one is disconnected.", valueName: "bytes"))
    var maxFrameSize: Int?

    @Option(help: ArgumentHelp("On SIGTERM, how long to wait for requests already with workers.", valueName: "duration"))
    var shutdownGrace: String?

    @Option(help: ArgumentHelp("trace, debug, info, notice, warning, error or critical.", valueName: "level"))
    var logLevel: String?

    func run() async throws {
        let settings = Settings()
        ParentWatch.startIfRequested(environment: settings.environment)
        let options: Broker.Options
        let busOptions: EventBus.Options
        do {
            options = try brokerOptions(settings)
            busOptions = try eventBusOptions(settings)
            LogSetup.bootstrap(level: try settings.logLevel(logLevel))
        } catch let error as ConfigurationError {
            throw ValidationError(error.description)
        }
        let live = LiveEndpoint.served(options.endpoints + busOptions.publishEndpoints + busOptions.subscribeEndpoints)
        guard live.isEmpty else {
            FileHandle.standardError.write(Data("gateway: \(live.joined(separator: ", ")) already served by a running gateway; stop it first, or bind other endpoints (--bind, --events-publish, --events-subscribe)\n".utf8))
            throw ExitCode.failure
        }
        let logger = Logger(label: "gateway")
        let context = try Context()
        let broker = Broker(options: options, replies: JSONRPCBrokerReplies(), context: context, logger: logger)
        let bus = EventBus(options: busOptions, context: context, logger: logger)
        let group = ServiceGroup(configuration: .init(
            services: [.init(service: BrokerService(broker: broker, logger: logger)),
                       .init(service: EventBusService(bus: bus, logger: logger))],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        ))
        do {
            try await group.run()
        } catch let error as ZMQError {
            FileHandle.standardError.write(Data("gateway: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }

    private func eventBusOptions(_ settings: Settings) throws -> EventBus.Options {
        let environment = settings.environment
        let publish = eventsPublish ?? Endpoints.eventsPublish(environment: environment)
        let subscribe = eventsSubscribe ?? Endpoints.eventsSubscribe(environment: environment)
        for endpoint in [publish, subscribe] { try Endpoints.validate(endpoint) }
        try RuntimeDirectory.prepare(endpoints: [publish, subscribe], environment: environment)
        return EventBus.Options(publishEndpoints: [publish], subscribeEndpoints: [subscribe])
    }

    private func brokerOptions(_ settings: Settings) throws -> Broker.Options {
        let environment = settings.environment
        let endpoints = bind.isEmpty ? Endpoints.gatewayBind(environment: environment) : bind
        for endpoint in endpoints { try Endpoints.validate(endpoint) }
        try RuntimeDirectory.prepare(endpoints: endpoints, environment: environment)
        var options = Broker.Options(endpoints: endpoints)
        var configuration = BrokerConfiguration()
        configuration.heartbeatInterval = try settings.duration(heartbeatInterval, env: "POSTS_HEARTBEAT_INTERVAL", default: configuration.heartbeatInterval)
        configuration.heartbeatLiveness = try settings.integer(heartbeatLiveness, env: "POSTS_HEARTBEAT_LIVENESS", default: configuration.heartbeatLiveness)
        configuration.queueWait = try settings.duration(queueWait, env: "POSTS_QUEUE_WAIT", default: configuration.queueWait)
        configuration.queueLimit = try settings.integer(queueLimit, env: "POSTS_QUEUE_LIMIT", default: configuration.queueLimit)
        configuration.clientLimit = try settings.integer(clientLimit, env: "POSTS_CLIENT_LIMIT", default: configuration.clientLimit)
        configuration.shutdownGrace = try settings.duration(shutdownGrace, env: "POSTS_SHUTDOWN_GRACE", default: configuration.shutdownGrace)
        options.configuration = configuration
        options.maxFrameSize = Int64(try settings.maxFrameSize(maxFrameSize))
        return options
    }
}
