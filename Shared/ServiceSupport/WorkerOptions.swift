import ArgumentParser
import Logging
import Majordomo
import Observability
import SystemSupport
import ZeroMQ

/// The flags every worker executable takes, each with its environment
/// variable (a flag wins): one declaration for posts-service and
/// search-service, so their --help and their checks agree.
public struct WorkerOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Gateway endpoints to serve, comma-separated (each gets --sessions connections).", valueName: "endpoints"))
    public var gateway: String?
    @Option(help: ArgumentHelp("MDP connections to each gateway.", valueName: "count")) public var sessions: Int?
    @Option(help: ArgumentHelp("Requests each session takes at once (1 to 1000; posts-service and search-service: default 2).", valueName: "count"))
    public var credit: Int?
    @Option(help: ArgumentHelp("Threads the sessions share (default: one per core, at most one per session).", valueName: "count"))
    public var threads: Int?
    @Option(help: ArgumentHelp("Heartbeat interval.", valueName: "duration")) public var heartbeatInterval: String?
    @Option(help: ArgumentHelp("Largest reply in bytes; keep it equal to the gateway's.", valueName: "bytes")) public var maxFrameSize: Int?
    @Option(help: ArgumentHelp("trace, debug, info, notice, warning, error or critical.", valueName: "level")) public var logLevel: String?
    @Option(help: ArgumentHelp("Serve metrics for Prometheus at host:port (POSTS_METRICS; default: off).", valueName: "host:port"))
    public var metrics: String?
    @OptionGroup public var curve: CurveOptions

    public init() {}

    /// What the flags and variables say, checked; logging is set up on the way.
    public struct Resolved: Sendable {
        /// Every gateway to serve.
        public let endpoints: [String]
        public let configuration: MajordomoWorker.Configuration
        public let maxReplyBytes: Int
        /// Every connection's CURVE rule.
        public let security: Security
        /// The process's context: `security`, and the transport `POSTS_ZMTP` chose.
        public let context: Context
        /// Where to serve metrics; nil for none.
        public let metrics: MetricsAddress?
    }

    /// A flag's comma-separated endpoints, or `fallback` (its environment
    /// variable's) when it was not given; a usage error when it names none.
    public static func endpoints(_ value: String?, flag: String, else fallback: @autoclosure () -> [String]) throws -> [String] {
        guard let value else { return fallback() }
        guard let list = Endpoints.list(value) else { throw ValidationError("\(flag) names no endpoint") }
        return list
    }

    /// Resolves the settings, or throws a usage error naming the bad one.
    /// `events` are the event bus endpoints the worker also connects to.
    public func resolve(_ settings: Settings, defaultSessions: Int, defaultCredit: Int, events: [String]) throws -> Resolved {
        let endpoints = try Self.endpoints(gateway, flag: "--gateway", else: Endpoints.gateways(environment: settings.environment))
        do {
            LogSetup.bootstrap(level: try settings.logLevel(logLevel))
            DescriptorLimit.raise(logging: Logger(label: "limits"))
            for each in endpoints + events { try Endpoints.validate(each) }
            let security = try curve.resolve(settings, endpoints: endpoints + events)
            if let warning = security.warning { Logger(label: "security").warning("\(warning)") }
            let context = try settings.context(security: security.security)
            // The worker's sessions; its event publisher, as every client, is libzmq's.
            context.logLibzmqUse(endpoints, binding: false, logger: Logger(label: "transport"))
            return Resolved(
                endpoints: endpoints,
                configuration: try settings.workerConfiguration(
                    sessions: sessions, defaultSessions: defaultSessions, credit: credit, defaultCredit: defaultCredit,
                    threads: threads, heartbeatInterval: heartbeatInterval),
                maxReplyBytes: try settings.maxFrameSize(maxFrameSize),
                security: security.security,
                context: context,
                metrics: try settings.metricsAddress(metrics))
        } catch let error as ConfigurationError {
            throw ValidationError(error.description)
        }
    }
}
