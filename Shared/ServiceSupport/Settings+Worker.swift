import Majordomo

extension Settings {
    /// A worker's settings, as every worker executable reads them: sessions
    /// (`POSTS_SESSIONS`), requests each takes at once (`POSTS_CREDIT`),
    /// the threads they share (`POSTS_WORKER_THREADS`, default one per
    /// core), heartbeat interval (`POSTS_HEARTBEAT_INTERVAL`) and liveness
    /// (`POSTS_HEARTBEAT_LIVENESS`), a flag winning over its variable.
    public func workerConfiguration(
        sessions flagSessions: Int?, defaultSessions: Int, credit flagCredit: Int? = nil, defaultCredit: Int = 1, threads flagThreads: Int? = nil,
        heartbeatInterval flagInterval: String?
    ) throws -> MajordomoWorker.Configuration {
        var configuration = MajordomoWorker.Configuration()
        configuration.sessions = try integer(flagSessions, env: "POSTS_SESSIONS", default: defaultSessions)
        configuration.credit = try integer(flagCredit, env: "POSTS_CREDIT", default: defaultCredit)
        guard configuration.credit <= MDP.creditLimit else {
            throw ConfigurationError("POSTS_CREDIT / --credit \(configuration.credit) is more than \(MDP.creditLimit)")
        }
        let threads = try integer(flagThreads, env: "POSTS_WORKER_THREADS", default: 0, minimum: 1)
        configuration.threads = threads == 0 ? nil : threads
        configuration.heartbeatInterval = try duration(flagInterval, env: "POSTS_HEARTBEAT_INTERVAL", default: configuration.heartbeatInterval)
        configuration.heartbeatLiveness = try integer(nil, env: "POSTS_HEARTBEAT_LIVENESS", default: configuration.heartbeatLiveness)
        return configuration
    }

    /// The largest frame in bytes (`POSTS_MAX_FRAME_SIZE`, default 16 MiB, at
    /// least 1024): what the gateway accepts, and so what a worker may reply.
    public func maxFrameSize(_ flag: Int?) throws -> Int {
        try integer(flag, env: "POSTS_MAX_FRAME_SIZE", default: Self.defaultMaxFrameSize, minimum: 1024)
    }

    public static let defaultMaxFrameSize = 16 << 20

    /// Requests an echo-worker session takes at once by default: enough
    /// that two processes of one session each keep pace with a pipelining
    /// client (measured beside NATS, docs/BENCHMARKS.md: 8 left tcp:// at
    /// 0.69x of NATS at 2 x 1, 32 at 0.92x, 64 no further). The services
    /// take fewer (`WorkerOptions.resolve`): what waits for their database
    /// belongs in the gateway's fair, bounded queue, not in their pools.
    public static let pipelineCredit = 32
}
