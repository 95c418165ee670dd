#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Synchronization
import ZeroMQ

/// The thread behind `MajordomoClient`. Callers put requests in `state` and
/// wake the thread; only the thread touches the sockets.
final class ClientEngine: Sendable {
    typealias Instant = ContinuousClock.Instant

    struct Pending {
        var service: Frame
        var serviceName: String
        var body: [Frame]
        var correlationID: String?
        var timeout: Duration
        var attempts = 0
        var deadline: Instant?
        /// Brokers that answered it "going away" (`Configuration.isLeaving`).
        var bounces = 0
        var continuation: CheckedContinuation<[Frame], any Error>
    }

    struct State {
        var nextKey: UInt64 = 0
        var pending: [UInt64: Pending] = [:]
        var unsent: [UInt64] = []
        var byCorrelation: [String: UInt64] = [:]
        var closed = false

        mutating func remove(_ key: UInt64) -> Pending? {
            guard let request = pending.removeValue(forKey: key) else { return nil }
            if let id = request.correlationID, byCorrelation[id] == key { byCorrelation[id] = nil }
            return request
        }
    }

    let endpoints: [String]
    let configuration: MajordomoClient.Configuration
    let context: Context
    let logger: Logger
    let correlator: MajordomoClient.Correlator
    let state = Mutex(State())
    let waker = Waker()
    let handshakes = HandshakeRecord()
    /// Whether a connection to a broker has been made (its socket connected).
    let connectedOnce = Atomic<Bool>(false)
    /// The broker in use, by its place in `endpoints`.
    let current = Atomic<Int>(0)

    init(
        endpoints: [String], configuration: MajordomoClient.Configuration, context: Context,
        logger: Logger, correlator: @escaping MajordomoClient.Correlator
    ) {
        self.endpoints = endpoints
        self.configuration = configuration
        self.context = context
        self.logger = logger
        self.correlator = correlator
    }

    var currentIndex: Int { current.load(ordering: .relaxed) }
    var failsOver: Bool { endpoints.count > 1 }

    func start() {
        startSocketThread(named: "mdp-client") { [self] in run() }
    }

    func close() {
        state.withLock { $0.closed = true }
        waker.wake()
    }

    func request(service: String, body: [Frame], correlationID: String?, timeout: Duration?) async throws -> [Frame] {
        let key = state.withLock { state -> UInt64 in
            state.nextKey += 1
            return state.nextKey
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let refusal: (any Error)? = state.withLock { state in
                    if state.closed { return MajordomoClientError.closed }
                    // onCancel may have run before the request was registered.
                    if Task.isCancelled { return CancellationError() }
                    state.pending[key] = Pending(
                        service: Frame(service), serviceName: service, body: body, correlationID: correlationID,
                        timeout: timeout ?? configuration.timeout, continuation: continuation
                    )
                    if let correlationID { state.byCorrelation[correlationID] = key }
                    state.unsent.append(key)
                    return nil
                }
                if let refusal { continuation.resume(throwing: refusal) } else { waker.wake() }
            }
        } onCancel: {
            state.withLock { $0.remove(key) }?.continuation.resume(throwing: CancellationError())
        }
    }
}
