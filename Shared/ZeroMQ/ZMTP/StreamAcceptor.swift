#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// The listeners of one thread's own ZMTP endpoints, taking connections
/// within bounds: at most `budget.limit` at once, and no busy loop when
/// the process is out of descriptors. Past either limit a new connection
/// is closed at once (the peer sees it closed rather than waiting in the
/// backlog), a problem is noted, and the listeners are not watched for
/// `restInterval`; connected peers are served meanwhile.
///
/// Thread rules: its owner's thread, which waits on `events`.
final class StreamAcceptor {
    static let restInterval = Duration.milliseconds(100)

    let budget: ConnectionBudget
    private let events: EventPoll
    /// The key in `events` of the first listener; the others follow it.
    private let firstKey: UInt64
    private(set) var listeners: [StreamListener] = []
    /// When the listeners are watched again, while they rest.
    private var restingUntil: ContinuousClock.Instant?
    /// Whether they rest: asked on every wait, so a plain flag.
    private(set) var isResting = false
    /// A descriptor held in reserve: freed for a moment to accept and close
    /// a connection when the process has none left, so the peer learns it
    /// and the listener stops being readable.
    private var reserve: Int32
    /// Connections closed at once for the limit since last reported.
    private var turnedAway = 0
    /// What went wrong, for the owner's log.
    var problems: [PeerProblem] = []

    init(events: EventPoll, firstKey: UInt64, budget: ConnectionBudget) {
        self.events = events
        self.firstKey = firstKey
        self.budget = budget
        reserve = open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    deinit {
        close()
        if reserve >= 0 { _ = Glibc.close(reserve) }
    }

    /// Listens on `endpoint`; returns the listener's index. Throws naming it.
    func bind(_ endpoint: String) throws -> Int {
        let listener = try StreamListener(endpoint: endpoint)
        do {
            try events.add(listener.descriptor, key: firstKey + UInt64(listeners.count))
        } catch {
            listener.close()
            throw error
        }
        listeners.append(listener)
        return listeners.count - 1
    }

    /// The listener a key of `events` stands for, if it is one of these.
    func listener(forKey key: UInt64) -> Int? {
        key >= firstKey && key < firstKey + UInt64(listeners.count) ? Int(key - firstKey) : nil
    }

    /// Accepts what waits on listener `index`, calling `admit` with each
    /// connection let in (its place in the budget taken; the connection
    /// gives it back as it closes).
    func accept(from index: Int, _ admit: (Int32) -> Void) {
        let listener = listeners[index]
        defer { if turnedAway > 0 { reportTurnedAway() } }
        // Another thread may have taken the number the reserve freed last time.
        if reserve < 0 { reserve = open("/dev/null", O_RDONLY | O_CLOEXEC) }
        while true {
            switch listener.accept() {
            case .none:
                return
            case .connection(let descriptor):
                guard budget.take() else {
                    _ = Glibc.close(descriptor)
                    turnedAway += 1
                    continue
                }
                admit(descriptor)
            case .exhausted(let code):
                // The backlog's first connection holds the listener readable:
                // closed through the reserve, so the peer hears of it.
                if reserve >= 0 {
                    _ = Glibc.close(reserve)
                    if case .connection(let descriptor) = listener.accept() { _ = Glibc.close(descriptor) }
                    reserve = open("/dev/null", O_RDONLY | O_CLOEXEC)
                }
                problems.append(
                    PeerProblem(
                        .descriptors,
                        "accept on \(listener.endpoint): \(String(cString: strerror(code))); "
                            + "\(budget.count) connections open; not accepting for \(Self.restInterval)"))
                rest()
                return
            }
        }
    }

    private func reportTurnedAway() {
        problems.append(
            PeerProblem(
                .connectionLimit,
                "\(turnedAway) new connection(s) closed at once: \(budget.count) are open, "
                    + "the limit is \(budget.limit); not accepting for \(Self.restInterval)"))
        turnedAway = 0
        rest()
    }

    /// Stops watching the listeners for `restInterval`.
    private func rest() {
        guard !isResting else { return }
        isResting = true
        restingUntil = ContinuousClock.now + Self.restInterval
        for (index, listener) in listeners.enumerated() {
            try? events.change(listener.descriptor, key: firstKey + UInt64(index), input: false, output: false)
        }
    }

    /// Watches the listeners again once their rest is over.
    func wake() {
        guard isResting, let until = restingUntil, ContinuousClock.now >= until else { return }
        isResting = false
        restingUntil = nil
        for (index, listener) in listeners.enumerated() {
            try? events.change(listener.descriptor, key: firstKey + UInt64(index), output: false)
        }
    }

    /// A wait's timeout, shortened to the end of a rest.
    func timeout(_ timeout: Duration) -> Duration {
        guard isResting, let until = restingUntil else { return timeout }
        return max(.zero, min(timeout, ContinuousClock.now.duration(to: until)))
    }

    func close() {
        for listener in listeners { listener.close() }
        listeners.removeAll()
    }
}
