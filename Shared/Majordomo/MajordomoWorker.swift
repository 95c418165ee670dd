import Foundation
import Logging
import Synchronization
import ZeroMQ

/// A 7/MDP worker: registers a service with the broker, answers one request
/// at a time with `handler`, and keeps heartbeats flowing both while idle and
/// while the handler runs, so a long request never looks like a dead peer.
///
/// Thread rules: the DEALER socket lives on the worker's own thread. The
/// handler runs as a Swift task; its reply comes back to the socket's
/// thread through a mailbox and a `Waker`, never by touching the socket.
public final class MajordomoWorker: Sendable {
    public typealias Handler = @Sendable (_ body: [Frame]) async -> [Frame]

    public struct Configuration: Sendable {
        public var heartbeatInterval: Duration = .milliseconds(2500)
        public var heartbeatLiveness = 3
        /// First wait before reconnecting to a silent broker; doubles up to `reconnectDelayMax`.
        public var reconnectDelay: Duration = .milliseconds(250)
        public var reconnectDelayMax: Duration = .seconds(8)
        public init() {}
    }

    public let endpoint: String
    public let service: String
    private let configuration: Configuration
    private let context: Context
    private let logger: Logger
    private let waker = Waker()
    private let stopping = Atomic<Bool>(false)
    private let mailbox = Mutex<[(generation: Int, body: [Frame])]>([])
    private let started = Completion<ZMQError?>()
    private let finished = Completion<Void>()

    public init(endpoint: String, service: String, configuration: Configuration = .init(), context: Context, logger: Logger) {
        self.endpoint = endpoint
        self.service = service
        self.configuration = configuration
        self.context = context
        self.logger = logger
    }

    /// Serves requests until `stop()`; throws if the endpoint is unusable.
    public func run(_ handler: @escaping Handler) async throws {
        let thread = Thread { [self] in loop(handler) }
        thread.name = "mdp-worker"
        thread.start()
        if let error = await started.value { throw error }
        await finished.value
    }

    /// Stops after the request in hand is answered: tells the broker
    /// DISCONNECT so it routes nothing more here. Any thread.
    public func stop() {
        stopping.store(true, ordering: .releasing)
        waker.wake()
    }

    private var isStopping: Bool { stopping.load(ordering: .acquiring) }

    private func loop(_ handler: @escaping Handler) {
        defer { finished.complete(()) }
        var generation = 0
        var delay = configuration.reconnectDelay
        var reportedStart = false
        while !isStopping {
            generation += 1
            let socket: Socket
            do {
                socket = try Socket(context, .dealer)
                try socket.connect(endpoint)
                try socket.send(MDP.ready(service: Frame(service)))
            } catch let error as ZMQError {
                if !reportedStart { started.complete(error) }
                return
            } catch {
                return
            }
            if !reportedStart {
                reportedStart = true
                started.complete(nil)
            }
            logger.info("worker connecting", metadata: ["service": "\(service)", "endpoint": "\(endpoint)"])
            switch session(on: socket, generation: generation, handler: handler, delay: &delay) {
            case .reconnectNow:
                socket.close()
            case .reconnectAfterDelay:
                socket.close()
                pause(delay)
                delay = min(delay * 2, configuration.reconnectDelayMax)
            case .stopped, .terminated:
                socket.close()
                return
            }
        }
    }

    enum SessionEnd { case reconnectNow, reconnectAfterDelay, stopped, terminated }

    /// One connection to the broker, from READY until it ends.
    private func session(on socket: Socket, generation: Int, handler: @escaping Handler, delay: inout Duration) -> SessionEnd {
        let clock = ContinuousClock()
        let expiry = configuration.heartbeatInterval * configuration.heartbeatLiveness
        var brokerExpiry = clock.now + expiry
        var heartbeatAt = clock.now + configuration.heartbeatInterval
        var client: Frame?
        var poller = Poller()
        let socketIndex = poller.addReadable(socket)
        let wakerIndex = poller.addReadable(fileDescriptor: waker.fileDescriptor)
        do {
            while true {
                if isStopping && client == nil {
                    // Long enough to deliver DISCONNECT to a live broker; short
                    // enough not to hold up exit when there is none.
                    try? socket.set(.linger, 200)
                    try socket.send(MDP.disconnect, wait: false)
                    logger.info("worker stopped", metadata: ["service": "\(service)"])
                    return .stopped
                }
                let now = clock.now
                try poller.poll(timeout: now.duration(to: min(heartbeatAt, brokerExpiry)))
                if poller.isReadable(wakerIndex) { waker.drain() }
                for reply in mailbox.withLock({ box in defer { box.removeAll() }; return box }) where reply.generation == generation {
                    if let to = client { try socket.send(MDP.reply(client: to, body: reply.body)) }
                    client = nil
                }
                while poller.isReadable(socketIndex), let frames = try socket.receive(wait: false) {
                    brokerExpiry = clock.now + expiry
                    delay = configuration.reconnectDelay
                    switch BrokerCommand(frames) {
                    case .request(let from, let body):
                        guard client == nil else {
                            logger.warning("broker sent a REQUEST while one is in hand; ignored")
                            continue
                        }
                        client = from
                        Task { [self] in
                            let reply = await handler(body)
                            mailbox.withLock { $0.append((generation, reply)) }
                            waker.wake()
                        }
                    case .heartbeat:
                        break
                    case .disconnect:
                        logger.info("broker sent DISCONNECT; registering again", metadata: ["service": "\(service)"])
                        return .reconnectNow
                    case .malformed(let reason):
                        logger.warning("malformed message from broker dropped", metadata: ["reason": "\(reason)"])
                    }
                }
                if clock.now >= brokerExpiry {
                    logger.warning("broker silent; reconnecting", metadata: ["endpoint": "\(endpoint)", "after": "\(delay)"])
                    return .reconnectAfterDelay
                }
                if clock.now >= heartbeatAt {
                    try socket.send(MDP.heartbeat)
                    heartbeatAt = clock.now + configuration.heartbeatInterval
                }
            }
        } catch let error as ZMQError where error.isTerminated {
            return .terminated
        } catch {
            logger.error("worker socket failed; reconnecting", metadata: ["error": "\(error)"])
            return .reconnectAfterDelay
        }
    }

    /// Sleeps, but wakes early for `stop()`.
    private func pause(_ duration: Duration) {
        var poller = Poller()
        poller.addReadable(fileDescriptor: waker.fileDescriptor)
        _ = try? poller.poll(timeout: duration)
    }
}

/// A message from the broker to a worker, parsed per 7/MDP.
enum BrokerCommand: Equatable {
    case request(client: Frame, body: [Frame])
    case heartbeat
    case disconnect
    case malformed(String)

    init(_ frames: [Frame]) {
        guard frames.count >= 3, frames[0].isEmpty, frames[1] == MDP.workerHeader,
              let byte = frames[2].singleByte, let command = MDP.Command(rawValue: byte)
        else {
            self = .malformed("not an MDPW01 command")
            return
        }
        switch command {
        case .request:
            guard frames.count >= 5, frames[4].isEmpty else {
                self = .malformed("REQUEST without client address and delimiter")
                return
            }
            self = .request(client: frames[3], body: Array(frames[5...]))
        case .heartbeat: self = .heartbeat
        case .disconnect: self = .disconnect
        case .ready, .reply: self = .malformed("\(command) is not sent by a broker")
        }
    }
}
