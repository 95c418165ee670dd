import DequeModule
import ZeroMQ

/// The broker's state machine, with no sockets and no clock of its own: it
/// takes what arrived and the time, and leaves what to send in `outbox`
/// (each message starting with the peer's routing id) and what happened in
/// `events`. The socket loop (`Broker`) and the unit tests both drive it.
struct BrokerCore {
    typealias Instant = ContinuousClock.Instant

    struct Request {
        var client: Frame
        var body: [Frame]
        var received: Instant
        /// When it stops waiting for a worker: the queue wait, or the
        /// client's budget if that ends first.
        var deadline: Instant
        /// When the client stops waiting (its budget), if its body says.
        var expires: Instant?
        /// Workers this request has been handed to.
        var attempts = 0
        /// The processes (`Worker.process`) that died while holding it:
        /// one process's sessions count once, since they die together.
        var failedIn: [String] = []
        /// The client was answered (its budget ran out while a worker had
        /// it): the worker's reply, when it comes, is dropped.
        var answered = false
        /// The broker's span of it, when tracing is on.
        var span: (any RequestSpan)?
        /// Its tag with a worker that has credit (`MDP.tagged`).
        var tag: UInt32 = 0
    }

    /// How many requests that came in one turn a session with room is
    /// handed in a row before the next session's turn: a run goes out in
    /// one write and the session reads it at once, where one request each
    /// to 32 sessions cost 32 writes and 32 wake-ups (beside NATS on tcp://
    /// at 2 x 16: 1.20x with runs of 1, 1.30x of 4, 1.56x of 8, 1.85x of 16,
    /// 1.74x of 32).
    static let runLength = 16

    struct Worker {
        var identity: Frame
        var service: String
        var expiry: Instant
        var connected: Instant
        var lastHeard: Instant
        /// The requests it has in hand, at most `credit`.
        var inHand: [Request] = []
        /// How many it takes at once: its READY's credit, 1 by 7/MDP. It
        /// is among its service's idle workers exactly while it has room.
        var credit = 1
        /// The tag its next request gets, when it has credit.
        var nextTag: UInt32 = 0
        var handled = 0
        /// The process the session belongs to (`WorkerSession.process(inRoutingID:)`);
        /// the routing id itself for a worker that does not say.
        var process: String
        /// Every broker the worker serves, when it serves several (its READY says).
        var brokers: [String] = []
    }

    struct Service {
        /// The name as a frame, made once: every reply carries it.
        let nameFrame: Frame
        var queue = FairQueue()
        /// Idle workers, longest idle first (least recently used), but for
        /// the one in the middle of a run (`runLength`), first.
        var idle = Deque<Frame>()
        /// The worker in the middle of a run, how many it took, and in
        /// which turn: a run never outlasts its turn.
        var run: (holder: Frame, count: Int, turn: UInt64)?
        var workers = 0
        /// A service that had workers is kept, with its counters, for
        /// introspection until it has had no worker and nothing waiting for
        /// a queue wait; one only ever asked for is forgotten when idle.
        var hadWorkers = false
        /// Since when it has had no worker and nothing waiting.
        var emptySince: ContinuousClock.Instant?
        /// Its figures: its own once it has had a worker, else `_OTHER`'s.
        var metrics: ServiceMetrics
        var requests = 0
        var replies = 0
        var refused = 0
        var latency = LatencyWindow()

        init(name: String, metrics: ServiceMetrics) { (nameFrame, self.metrics) = (Frame(name), metrics) }
    }

    /// Where a service is in `services`. The hot paths look a name up once
    /// and then use this, valid until a service is added or removed.
    typealias ServiceSlot = Dictionary<String, Service>.Index

    let configuration: BrokerConfiguration
    let replies: any BrokerReplies
    let started: Instant
    var workers: [Frame: Worker] = [:]
    var services: [String: Service] = [:]
    /// Requests each client has queued or in progress.
    var outstanding: [Frame: Int] = [:]
    /// Processes one of whose sessions was found dead (silent, or
    /// unreachable), and when: their other sessions are handed nothing
    /// until heard from since. At most one entry per process with
    /// sessions; an entry goes with the process's last session.
    var suspects: [String: Instant] = [:]
    var totals = BrokerSnapshot.Totals()
    var nextHeartbeat: Instant
    /// The earliest moment `tick` may have work; never later than the truth.
    private(set) var nextDeadline: Instant
    /// Set by `beginDrain`: requests are refused, replies still delivered.
    private(set) var draining = false
    /// The time of the message or tick being handled.
    /// The socket loop's turn (`beginTurn`): requests read together.
    var turn: UInt64 = 0
    var now: Instant

    let metrics = BrokerMetrics()
    /// Records the broker's span of each request; nil when tracing is off.
    var tracing: (any BrokerTracing)?

    var outbox: [[Frame]] = []
    var events: [BrokerEvent] = []

    init(configuration: BrokerConfiguration, replies: any BrokerReplies, now: Instant) {
        self.configuration = configuration
        self.replies = replies
        started = now
        self.now = now
        nextHeartbeat = now + configuration.heartbeatInterval
        nextDeadline = nextHeartbeat
    }

    /// Handles one message as received on the ROUTER socket (routing id first).
    mutating func handle(_ frames: [Frame], now: Instant) {
        self.now = now
        guard let sender = frames.first else { return }
        switch InboundMessage.parse(frames.dropFirst(), maxFrames: configuration.maxFrames) {
        case .success(.clientRequest(let service, let body)):
            handleClientRequest(from: sender, service: service, body: body, now: now)
        case .success(let command):
            handleWorkerCommand(from: sender, command, now: now)
        case .failure(.invalidServiceName(let name)) where frames.count > 2 && frames[2] == MDP.clientHeader:
            // A client is answered, never left waiting: its request names no
            // service there could be.
            totals.malformed += 1
            refuse(client: sender, body: Array(frames.dropFirst(4)), .invalidServiceName(service: name.string ?? "(not UTF-8)"))
        case .failure(let problem):
            if answerMDP02(frames) { return }
            totals.malformed += 1
            metrics.unnamed.count(.malformed)
            let claimsToBeWorker = frames.count > 2 && frames[2] == MDP.workerHeader
            if claimsToBeWorker {
                disconnectWorker(sender, reason: problem.description, now: now)
            } else {
                events.append(.malformed(sender: sender, reason: problem.description))
            }
        }
    }

    /// Something to send or to log.
    var hasOutput: Bool { !outbox.isEmpty || !events.isEmpty }

    mutating func takeOutbox() -> [[Frame]] {
        defer { outbox.removeAll(keepingCapacity: true) }
        return outbox
    }

    mutating func takeEvents() -> [BrokerEvent] {
        defer { events.removeAll() }
        return events
    }

    mutating func lowerDeadline(to instant: Instant) {
        if instant < nextDeadline { nextDeadline = instant }
    }

    /// Ticks are at least this far apart, so a long queue whose requests
    /// expire one by one is not scanned on every loop.
    static let tickGranularity = Duration.milliseconds(5)

    mutating func recomputeDeadline(now: Instant) {
        var earliest = nextHeartbeat
        for worker in workers.values {
            if worker.expiry < earliest { earliest = worker.expiry }
            for request in worker.inHand where !request.answered {
                if let expires = request.expires, expires < earliest { earliest = expires }
            }
        }
        for service in services.values {
            service.queue.forEach { request in if request.deadline < earliest { earliest = request.deadline } }
        }
        nextDeadline = max(earliest, now + Self.tickGranularity)
    }

    /// Stop taking requests: refuse those waiting and any that arrive;
    /// replies to requests already with workers are still delivered.
    mutating func beginDrain() {
        draining = true
        for name in services.keys {
            for request in services[name]?.queue.removeAll(where: { _ in true }) ?? [] {
                reject(request, of: name, .shuttingDown(service: name))
            }
        }
    }

    /// Sets the gauges (`gateway_queue_depth`, workers, sessions) to what is now.
    func updateGauges() {
        var processes: [String: Set<String>] = [:]
        for worker in workers.values {
            let text = worker.identity.string ?? ""
            processes[worker.service, default: []].insert(WorkerSession.pid(inRoutingID: text).map { "\($0)" } ?? text)
        }
        for (name, service) in services where service.metrics !== metrics.unnamed {
            service.metrics.queueDepth.record(service.queue.count)
            service.metrics.sessions.record(service.workers)
            service.metrics.workers.record(processes[name]?.count ?? 0)
        }
    }

    /// No worker holds a request any more.
    var isDrained: Bool { workers.values.allSatisfy { $0.inHand.isEmpty } }
}
