@testable import Majordomo
import Testing
import ZeroMQ

/// Broker replies that name the refusal in plain text, so tests can read them.
struct PlainReplies: BrokerReplies {
    func refusal(_ refusal: BrokerRefusal, request body: [Frame]) -> [Frame] {
        switch refusal {
        case .serviceUnavailable: ["unavailable"]
        case .clientLimit: ["busy:client"]
        case .queueFull: ["busy:queue"]
        case .workersFailed: ["failed"]
        case .shuttingDown: ["stopping"]
        case .interrupted: ["interrupted"]
        case .unsupportedProtocol(let header, _): [Frame("speaks \(header)")]
        case .serviceLimit(_, let limit): [Frame("limit:\(limit)")]
        case .invalidServiceName: ["bad name"]
        case .timeout(_, _, let withWorker): [withWorker ? "timeout:worker" : "timeout:queue"]
        }
    }

    /// A body `budget:N` carries a budget of N ms.
    func budget(of body: [Frame]) -> Duration? {
        guard let text = body.first?.string, text.hasPrefix("budget:"), let milliseconds = Int(text.dropFirst(7)) else { return nil }
        return .milliseconds(milliseconds)
    }

    func body(_ body: [Frame], waited: Duration, remaining: Duration) -> [Frame] {
        [Frame("budget:\(remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000)")]
    }

    func introspection(service: String, request body: [Frame], snapshot: BrokerSnapshot) -> [Frame]? {
        service == "mmi.count" ? [Frame("\(snapshot.workers.count)")] : nil
    }
}

/// A broker core with a hand-driven clock.
struct Harness {
    var core: BrokerCore
    var now: ContinuousClock.Instant

    init(_ configure: (inout BrokerConfiguration) -> Void = { _ in }) {
        var configuration = BrokerConfiguration()
        configuration.heartbeatInterval = .seconds(1)
        configuration.heartbeatLiveness = 3
        configuration.queueWait = .seconds(2)
        configure(&configuration)
        now = ContinuousClock.now
        core = BrokerCore(configuration: configuration, replies: PlainReplies(), now: now)
    }

    /// Delivers a message from `peer` and returns what the broker sends.
    @discardableResult
    mutating func receive(from peer: Frame, _ frames: [Frame]) -> [[Frame]] {
        core.handle([peer] + frames, now: now)
        return core.takeOutbox()
    }

    @discardableResult
    mutating func advance(_ duration: Duration) -> [[Frame]] {
        now = now + duration
        core.tick(now: now)
        return core.takeOutbox()
    }

    @discardableResult
    mutating func ready(_ worker: Frame, service: String) -> [[Frame]] {
        receive(from: worker, MDP.ready(service: Frame(service)))
    }

    @discardableResult
    mutating func request(from client: Frame, service: String, _ body: Frame = "hello") -> [[Frame]] {
        receive(from: client, MDP.clientRequest(service: Frame(service), body: [body]))
    }

    @discardableResult
    mutating func reply(from worker: Frame, to client: Frame, _ body: Frame = "answer") -> [[Frame]] {
        receive(from: worker, MDP.reply(client: client, body: [body]))
    }
}

/// The REQUEST a broker sends a worker on behalf of `client`.
func requestMessage(to worker: Frame, from client: Frame, _ body: Frame = "hello") -> [Frame] {
    [worker, "", MDP.workerHeader, MDP.Command.request.frame, client, ""] + [body]
}

func clientReply(to client: Frame, service: String, _ body: Frame) -> [Frame] {
    [client, "", MDP.clientHeader, Frame(service), body]
}

func disconnectMessage(to peer: Frame) -> [Frame] { [peer] + MDP.disconnect }

/// Whether `poller` has something to read within `limit`, asked without
/// holding a thread: the worker under test runs as a task, and on a small
/// machine a blocking poll could keep it from ever starting.
func readable(_ poller: inout Poller, within limit: Duration) async throws -> Bool {
    let deadline = ContinuousClock.now + limit
    repeat {
        if try poller.pollNow() > 0 { return true }
        try await Task.sleep(for: .milliseconds(2))
    } while ContinuousClock.now < deadline
    return false
}
