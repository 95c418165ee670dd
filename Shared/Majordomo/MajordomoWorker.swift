#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Synchronization
import ZeroMQ

/// A 7/MDP worker: registers a service with the broker, answers requests
/// with `handler`, and keeps heartbeats flowing both while idle and while the
/// handler runs, so a long request never looks like a dead peer.
///
/// 7/MDP gives a worker one request at a time, so one connection is capped
/// at one request per broker round trip. `sessions` opens that many
/// connections from this process (each its own MDP worker to the broker),
/// and `credit` lets each take that many requests at once (our extension,
/// docs/PROTOCOL.md "Credit"): a process serves up to sessions x credit.
///
/// With several brokers (gateways side by side), it opens `sessions`
/// connections to each, so it serves every one of them and goes on
/// serving through the others while one is down; each session reconnects
/// to its own broker by itself.
///
/// Threads: the sessions share `threads` threads (`SessionThread`), one
/// poll each for all their sockets. Each session's DEALER socket lives on
/// its thread; the handler runs as a Swift task there, and its reply goes
/// back to the session through a mailbox, never by touching the socket
/// from elsewhere.
public final class MajordomoWorker: Sendable {
    public typealias Handler = @Sendable (_ body: [Frame]) async -> [Frame]
    /// A handler run on the session's thread, with no hop to a task: the
    /// fastest path, for handlers that finish well within a heartbeat
    /// interval (the thread's sessions wait, heartbeats too, while it runs).
    public typealias SynchronousHandler = @Sendable (_ body: [Frame]) -> [Frame]

    enum Handling: Sendable {
        case async(Handler)
        case synchronous(SynchronousHandler)
    }

    public struct Configuration: Sendable {
        public var heartbeatInterval: Duration = .milliseconds(2500)
        public var heartbeatLiveness = 3
        /// First wait before reconnecting to a silent broker; doubles up to `reconnectDelayMax`.
        public var reconnectDelay: Duration = .milliseconds(250)
        public var reconnectDelayMax: Duration = .seconds(8)
        /// MDP connections to open (to each broker).
        public var sessions = 1
        /// Requests one session takes at once, announced in its READY
        /// (docs/PROTOCOL.md, "Credit"): 1 is 7/MDP's one at a time. More
        /// keeps a pipeline full: the broker hands the next request before
        /// the last reply is back, and handlers that wait overlap. A process
        /// runs at most `sessions` x `credit` handlers at once.
        public var credit = 1
        /// Threads the sessions share; nil for one per core, at most one
        /// per session. More sessions than threads keep a busy worker from
        /// waking a thread for every request.
        public var threads: Int?
        public init() {}

        /// `credit` within 1 and `MDP.creditLimit`.
        var sessionCredit: Int { min(max(1, credit), MDP.creditLimit) }

        var threadCount: Int {
            max(1, min(max(1, sessions), threads ?? ProcessInfo.processInfo.activeProcessorCount))
        }
    }

    /// The brokers it serves, each with `configuration.sessions` sessions.
    public let endpoints: [String]
    public let service: String
    private let configuration: Configuration
    private let context: Context
    private let logger: Logger
    private let stopping = Atomic<Bool>(false)
    private let sessions: [WorkerSession]
    private let threads: [SessionThread]
    private let handshakes: [String: HandshakeRecord]

    public init(endpoints: [String], service: String, configuration: Configuration = .init(), context: Context, logger: Logger) {
        precondition(!endpoints.isEmpty, "a worker needs a broker to serve")
        self.endpoints = endpoints
        self.service = service
        self.configuration = configuration
        self.context = context
        self.logger = logger
        let perBroker = max(1, configuration.sessions)
        let threads = (0..<configuration.threadCount).map { _ in SessionThread() }
        sessions = (0..<perBroker * endpoints.count).map { index in
            WorkerSession(thread: threads[index % threads.count], id: index, endpoint: endpoints[index / perBroker])
        }
        self.threads = threads
        handshakes = Dictionary(endpoints.map { ($0, HandshakeRecord()) }, uniquingKeysWith: { first, _ in first })
    }

    public convenience init(endpoint: String, service: String, configuration: Configuration = .init(), context: Context, logger: Logger) {
        self.init(endpoints: [endpoint], service: service, configuration: configuration, context: context, logger: logger)
    }

    /// Serves requests until `stop()`; throws if the endpoint is unusable.
    /// Heartbeats keep flowing while `handler` runs, however long it takes.
    public func run(_ handler: @escaping Handler) async throws {
        try await run(handling: .async(handler))
    }

    /// Serves requests with a handler run on each session's thread.
    public func run(synchronous handler: @escaping SynchronousHandler) async throws {
        try await run(handling: .synchronous(handler))
    }

    private func run(handling handler: Handling) async throws {
        guard MDP.isValidServiceName(service), !service.hasPrefix(MDP.mmiPrefix) else {
            throw WorkerError.invalidServiceName(service)
        }
        let started = sessions.map { _ in Completion<ZMQError?>() }
        for thread in threads {
            let mine: [@Sendable () async -> Void] = sessions.indices.filter { sessions[$0].thread === thread }.map { index in
                { [self] in await sessions[index].run(worker: self, handler: handler, started: started[index]) }
            }
            startSocketThread(named: "mdp-worker") { [logger] in thread.serve(mine, logger: logger) }
        }
        for ready in started {
            if let error = await ready.value {
                stop()
                for session in sessions { await session.finished.value }
                throw error
            }
        }
        for session in sessions { await session.finished.value }
    }

    /// Stops after the requests in hand are answered: tells the broker
    /// DISCONNECT so it routes nothing more here. Any thread.
    public func stop() {
        stopping.store(true, ordering: .releasing)
        for session in sessions { session.wake() }
    }

    /// A session's security handshake with `endpoint` ended: a failure is
    /// logged once per broker, as an error, until a handshake there succeeds
    /// again (all sessions share a key).
    func handshake(_ event: HandshakeEvent, endpoint: String) {
        guard let handshakes = handshakes[endpoint] else { return }
        let before = handshakes.failure
        guard handshakes.record(event) else { return }
        if event != .succeeded {
            logger.error("the gateway will not take this worker", metadata: ["endpoint": "\(endpoint)", "reason": "\(event)"])
        } else if before != nil {
            logger.notice("the gateway takes this worker again", metadata: ["endpoint": "\(endpoint)"])
        }
    }

    var isStopping: Bool { stopping.load(ordering: .acquiring) }
    var settings: (configuration: Configuration, context: Context, logger: Logger) { (configuration, context, logger) }
}
