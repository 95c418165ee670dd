import ArgumentParser
import Majordomo

/// The flags every worker executable takes, each with its environment
/// variable (a flag wins): one declaration for posts-service and
/// search-service, so their --help and their checks agree.
public struct WorkerOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Gateway endpoint to connect to.", valueName: "endpoint")) public var gateway: String?
    @Option(help: ArgumentHelp("Requests served at once (MDP connections).", valueName: "count")) public var sessions: Int?
    @Option(help: ArgumentHelp("Heartbeat interval.", valueName: "duration")) public var heartbeatInterval: String?
    @Option(help: ArgumentHelp("Largest reply in bytes; keep it equal to the gateway's.", valueName: "bytes")) public var maxFrameSize: Int?
    @Option(help: ArgumentHelp("trace, debug, info, notice, warning, error or critical.", valueName: "level")) public var logLevel: String?

    public init() {}

    /// What the flags and variables say, checked; logging is set up on the way.
    public struct Resolved: Sendable {
        public let endpoint: String
        public let configuration: MajordomoWorker.Configuration
        public let maxReplyBytes: Int
    }

    /// Resolves the settings, or throws a usage error naming the bad one.
    public func resolve(_ settings: Settings, defaultSessions: Int) throws -> Resolved {
        let endpoint = gateway ?? Endpoints.gateway(environment: settings.environment)
        do {
            LogSetup.bootstrap(level: try settings.logLevel(logLevel))
            try Endpoints.validate(endpoint)
            return Resolved(endpoint: endpoint,
                            configuration: try settings.workerConfiguration(sessions: sessions, defaultSessions: defaultSessions,
                                                                            heartbeatInterval: heartbeatInterval),
                            maxReplyBytes: try settings.maxFrameSize(maxFrameSize))
        } catch let error as ConfigurationError {
            throw ValidationError(error.description)
        }
    }
}
