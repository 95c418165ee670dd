import Foundation
import Logging
@testable import Majordomo
import Synchronization
import Testing
import ZeroMQ

let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

/// A fresh private directory for socket files, removed after `body`.
func withDirectory<Value>(_ body: (String) async throws -> Value) async throws -> Value {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mdp-\(UUID().uuidString.prefix(8))").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    return try await body(directory)
}

/// A broker on an ipc:// endpoint in a fresh private directory, stopped
/// (and its socket file gone) before the directory is removed.
func withBroker<Value>(
    heartbeat: Duration = .milliseconds(100),
    _ body: (Context, String) async throws -> Value
) async throws -> Value {
    try await withDirectory { directory in
        let context = try Context()
        var options = Broker.Options(endpoints: ["ipc://\(directory)/b.ipc"])
        options.configuration.heartbeatInterval = heartbeat
        options.configuration.shutdownGrace = .zero
        let broker = Broker(options: options, replies: PlainReplies(), context: context, logger: quiet)
        let endpoint = try await broker.start()[0]
        let outcome: Result<Value, any Error>
        do { outcome = .success(try await body(context, endpoint)) } catch { outcome = .failure(error) }
        broker.stop()
        await broker.waitUntilStopped()
        return try outcome.get()
    }
}

func workerConfiguration(heartbeat: Duration = .milliseconds(100)) -> MajordomoWorker.Configuration {
    var configuration = MajordomoWorker.Configuration()
    configuration.heartbeatInterval = heartbeat
    configuration.reconnectDelay = .milliseconds(50)
    return configuration
}

/// Replies echo their body, so the body's text is the correlation id.
let echoCorrelator: MajordomoClient.Correlator = { $0.first?.string }

@Suite("Client and worker through a real broker", .serialized)
struct ClientWorkerTests {
    @Test func test_whenManyRequestsAreInFlight_thenEachCallerGetsItsOwnReply() async throws {
        try await withBroker { context, endpoint in
            let worker = MajordomoWorker(endpoint: endpoint, service: "echo", configuration: workerConfiguration(), context: context, logger: quiet)
            let serving = Task { try await worker.run { $0 } }
            defer { worker.stop() }
            let client = try MajordomoClient(endpoint: endpoint, context: context, logger: quiet, correlationID: echoCorrelator)
            let replies = try await withThrowingTaskGroup(of: (String, String?).self) { group in
                for index in 0..<200 {
                    group.addTask {
                        let body = try await client.request(service: "echo", body: [Frame("r\(index)")], correlationID: "r\(index)")
                        return ("r\(index)", body.first?.string)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(replies.count == 200)
            #expect(replies.allSatisfy { $0.0 == $0.1 })
            worker.stop()
            try await serving.value
        }
    }

    @Test func test_whenAWorkerOpensSeveralSessions_thenItServesThatManyRequestsAtOnceAndNoMore() async throws {
        try await withBroker { context, endpoint in
            let inFlight = Atomic<Int>(0)
            let most = Atomic<Int>(0)
            var configuration = workerConfiguration()
            configuration.sessions = 3
            let worker = MajordomoWorker(endpoint: endpoint, service: "pool", configuration: configuration, context: context, logger: quiet)
            let serving = Task {
                try await worker.run { body in
                    let now = inFlight.add(1, ordering: .relaxed).newValue
                    most.max(now, ordering: .relaxed)
                    try? await Task.sleep(for: .milliseconds(100))
                    inFlight.subtract(1, ordering: .relaxed)
                    return body
                }
            }
            let client = try MajordomoClient(endpoint: endpoint, context: context, logger: quiet, correlationID: echoCorrelator)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<9 {
                    group.addTask { _ = try await client.request(service: "pool", body: [Frame("p\(index)")], correlationID: "p\(index)") }
                }
                try await group.waitForAll()
            }
            #expect(most.load(ordering: .relaxed) == 3)
            worker.stop()
            try await serving.value
        }
    }

    @Test func test_aSynchronousHandlerServesRequestsOnTheSessionThread() async throws {
        try await withBroker { context, endpoint in
            let worker = MajordomoWorker(endpoint: endpoint, service: "upper", configuration: workerConfiguration(), context: context, logger: quiet)
            let serving = Task { try await worker.run(synchronous: { body in body.map { Frame(($0.string ?? "").uppercased()) } }) }
            let client = try MajordomoClient(endpoint: endpoint, context: context, logger: quiet, correlationID: { _ in nil })
            #expect(try await client.request(service: "upper", body: ["abc"], correlationID: nil) == ["ABC"])
            worker.stop()
            try await serving.value
        }
    }

    @Test func test_whenAHandlerRunsLongerThanTheLiveness_thenHeartbeatsKeepTheWorkerAlive() async throws {
        try await withBroker { context, endpoint in
            let calls = Atomic<Int>(0)
            let worker = MajordomoWorker(endpoint: endpoint, service: "slow", configuration: workerConfiguration(), context: context, logger: quiet)
            let serving = Task {
                try await worker.run { body in
                    calls.add(1, ordering: .relaxed)
                    try? await Task.sleep(for: .milliseconds(700))  // seven heartbeat intervals
                    return body
                }
            }
            let client = try MajordomoClient(endpoint: endpoint, context: context, logger: quiet, correlationID: echoCorrelator)
            let reply = try await client.request(service: "slow", body: ["job"], correlationID: "job", timeout: .seconds(5))
            #expect(reply == ["job"])
            // Expired mid-request, the worker would have been handed the job again.
            #expect(calls.load(ordering: .relaxed) == 1)
            worker.stop()
            try await serving.value
        }
    }

    @Test func test_whenMMIServiceIsAsked_thenTheUncorrelatedAnswerReachesTheCaller() async throws {
        try await withBroker { context, endpoint in
            let worker = MajordomoWorker(endpoint: endpoint, service: "echo", configuration: workerConfiguration(), context: context, logger: quiet)
            let serving = Task { try await worker.run { $0 } }
            let client = try MajordomoClient(endpoint: endpoint, context: context, logger: quiet, correlationID: { _ in nil })
            var answer: [Frame] = []
            for _ in 0..<50 {
                answer = try await client.request(service: "mmi.service", body: ["echo"], correlationID: nil)
                if answer == ["200"] { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(answer == ["200"])
            #expect(try await client.request(service: "mmi.service", body: ["none"], correlationID: nil) == ["404"])
            worker.stop()
            try await serving.value
        }
    }

    @Test func test_whenTheBrokerFallsSilent_thenTheWorkerRegistersAgainOnANewSocket() async throws {
        try await withDirectory { directory in try await silentBroker(endpoint: "ipc://\(directory)/silent.ipc") }
    }

    private func silentBroker(endpoint: String) async throws {
        let context = try Context()
        let silentBroker = try Socket(context, .router)
        try silentBroker.bind(endpoint)
        defer { silentBroker.close() }
        let worker = MajordomoWorker(endpoint: endpoint, service: "echo", configuration: workerConfiguration(), context: context, logger: quiet)
        let serving = Task { try await worker.run { $0 } }
        defer { worker.stop() }

        var readies: [Frame] = []
        var poller = Poller()
        poller.addReadable(silentBroker)
        let deadline = ContinuousClock.now + .seconds(5)
        while readies.count < 2, ContinuousClock.now < deadline {
            guard try poller.poll(timeout: .milliseconds(100)) > 0, let message = try silentBroker.receive() else { continue }
            if Array(message.dropFirst()) == MDP.ready(service: "echo") { readies.append(message[0]) }
        }
        // Heartbeats alone never get an answer here; after 3 × 100 ms the worker gives up on this socket.
        #expect(readies.count == 2)
        #expect(Set(readies).count == 2, "the second READY must come from a new socket")
        worker.stop()
        try await serving.value
    }

    @Test func test_whenTheBrokerRefusesTheWorker_thenItRetriesWithBackoffInsteadOfSpinning() async throws {
        try await withDirectory { directory in
            let context = try Context()
            let endpoint = "ipc://\(directory)/refusing.ipc"
            let refusing = try Socket(context, .router)
            try refusing.bind(endpoint)
            defer { refusing.close() }
            let worker = MajordomoWorker(endpoint: endpoint, service: "echo", configuration: workerConfiguration(), context: context, logger: quiet)
            let serving = Task { try await worker.run { $0 } }
            var readies = 0
            var poller = Poller()
            poller.addReadable(refusing)
            let end = ContinuousClock.now + .milliseconds(600)
            while ContinuousClock.now < end {
                guard try poller.poll(timeout: .milliseconds(20)) > 0, let message = try refusing.receive() else { continue }
                if Array(message.dropFirst()) == MDP.ready(service: "echo") {
                    readies += 1
                    try refusing.send([message[0]] + MDP.disconnect)
                }
            }
            // Back-off of 50, 100, 200, 400 ms allows about five; spinning would be hundreds.
            #expect(readies >= 2 && readies <= 8, "\(readies) READY messages")
            worker.stop()
            try await serving.value
        }
    }

    @Test func test_aWorkerForAReservedOrEmptyServiceName_isRefusedBeforeConnecting() async throws {
        let context = try Context()
        for name in ["", "mmi.service", String(repeating: "x", count: 256)] {
            let worker = MajordomoWorker(endpoint: "ipc:///tmp/unused.ipc", service: name, context: context, logger: quiet)
            await #expect(throws: WorkerError.invalidServiceName(name)) { try await worker.run { $0 } }
        }
    }

    @Test func test_whenStoppedBeforeItStarts_thenRunStillReturns() async throws {
        try await withBroker { context, endpoint in
            let worker = MajordomoWorker(endpoint: endpoint, service: "echo", configuration: workerConfiguration(), context: context, logger: quiet)
            worker.stop()
            try await worker.run { $0 }
        }
    }

    @Test func test_aLateReplyForAnAbandonedRequest_neverAnswersAnotherRequest() async throws {
        try await withDirectory { directory in
            let context = try Context()
            let endpoint = "ipc://\(directory)/late.ipc"
            let fakeBroker = try Socket(context, .router)
            try fakeBroker.bind(endpoint)
            defer { fakeBroker.close() }
            // Only the stale reply carries an id; the other is an id-less (8/MMI-style) answer.
            let client = try MajordomoClient(endpoint: endpoint, context: context, logger: quiet,
                                             correlationID: { $0.first?.string == "old" ? "old" : nil })
            let abandoned = Task { try await client.request(service: "echo", body: ["old"], correlationID: "old", timeout: .seconds(30)) }
            let first = try #require(try fakeBroker.receive())
            abandoned.cancel()
            _ = try? await abandoned.value
            let waiting = Task { try await client.request(service: "echo", body: ["new"], correlationID: nil, timeout: .seconds(5)) }
            let second = try #require(try fakeBroker.receive())
            // The reply to the cancelled request arrives first and must be dropped.
            try fakeBroker.send([first[0], "", MDP.clientHeader, "echo", "old"])
            try fakeBroker.send([second[0], "", MDP.clientHeader, "echo", "new"])
            #expect(try await waiting.value == ["new"])
        }
    }

    @Test func test_whenNothingAnswers_thenTheRequestFailsWithATimeoutNamingTheAttempts() async throws {
        let context = try Context()
        var configuration = MajordomoClient.Configuration()
        configuration.timeout = .milliseconds(100)
        configuration.retries = 2
        let client = try MajordomoClient(endpoint: "ipc:///tmp/mdp-nobody-\(getpid()).ipc", configuration: configuration,
                                         context: context, logger: quiet, correlationID: echoCorrelator)
        await #expect(throws: MajordomoClientError.timeout(service: "echo", endpoint: client.endpoint, attempts: 3, each: .milliseconds(100))) {
            try await client.request(service: "echo", body: ["x"], correlationID: "x")
        }
    }

    @Test func test_whenAReplyIsLost_thenTheClientRetriesOnAFreshSocket() async throws {
        try await withDirectory { directory in try await lazyPirate(endpoint: "ipc://\(directory)/pirate.ipc") }
    }

    private func lazyPirate(endpoint: String) async throws {
        let context = try Context()
        let fakeBroker = try Socket(context, .router)
        try fakeBroker.bind(endpoint)
        defer { fakeBroker.close() }
        var configuration = MajordomoClient.Configuration()
        configuration.timeout = .milliseconds(200)
        let client = try MajordomoClient(endpoint: endpoint, configuration: configuration, context: context, logger: quiet, correlationID: echoCorrelator)
        let reply = Task { try await client.request(service: "echo", body: ["x"], correlationID: "x") }
        // Swallow the first attempt; answer the second.
        let first = try #require(try fakeBroker.receive())
        let second = try #require(try fakeBroker.receive())
        #expect(first[0] != second[0], "the retry must come from a new socket")
        #expect(Array(second.dropFirst()) == MDP.clientRequest(service: "echo", body: ["x"]))
        try fakeBroker.send([second[0], "", MDP.clientHeader, "echo", "x"])
        #expect(try await reply.value == ["x"])
    }

    @Test func test_whenTheCallerIsCancelled_thenTheRequestStopsWaiting() async throws {
        let context = try Context()
        let client = try MajordomoClient(endpoint: "ipc:///tmp/mdp-cancel-\(getpid()).ipc", context: context, logger: quiet, correlationID: echoCorrelator)
        let waiting = Task { try await client.request(service: "echo", body: ["x"], correlationID: "x", timeout: .seconds(60)) }
        try await Task.sleep(for: .milliseconds(50))
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
    }

    @Test func test_whenTheClientIsClosed_thenWaitingRequestsFailWithClosed() async throws {
        let context = try Context()
        let client = try MajordomoClient(endpoint: "ipc:///tmp/mdp-closed-\(getpid()).ipc", context: context, logger: quiet, correlationID: echoCorrelator)
        let waiting = Task { try await client.request(service: "echo", body: ["x"], correlationID: "x", timeout: .seconds(60)) }
        try await Task.sleep(for: .milliseconds(50))
        client.close()
        await #expect(throws: MajordomoClientError.closed) { try await waiting.value }
    }
}
