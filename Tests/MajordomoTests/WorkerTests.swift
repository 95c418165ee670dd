import Foundation
import Logging
@testable import Majordomo
import Synchronization
import TestSupport
import TestTraits
import Testing
import ZeroMQ

@Suite("Worker through a real broker", .serialized, .ownThread, .timeLimit(.minutes(5)))
struct WorkerTests {
    /// Sessions share threads (one per core by default): on one thread, the
    /// three still serve three requests at once while their handlers wait.
    @Test(arguments: [nil, 1, 3])
    func test_whenAWorkerOpensSeveralSessions_thenItServesThatManyRequestsAtOnceAndNoMore_onAnyNumberOfThreads(threads: Int?) async throws {
        var configuration = workerConfiguration()
        configuration.sessions = 3
        configuration.threads = threads
        #expect(try await mostAtOnce(configuration, requests: 9, expected: 3) == 3)
    }

    /// A session with credit takes that many requests at once through the
    /// real broker, and no more: 2 sessions x credit 3 run 6 handlers at
    /// once of the 14 asked, and every request gets its own reply.
    @Test func test_sessionsWithCredit_serveSessionsTimesCreditRequestsAtOnce_andNoMore() async throws {
        var configuration = workerConfiguration()
        configuration.sessions = 2
        configuration.credit = 3
        #expect(try await mostAtOnce(configuration, requests: 14, expected: 6) == 6)
    }

    /// Sends `requests` at once to a worker whose handler takes 100 ms, each
    /// expecting its own reply; returns the most handlers that ran at once.
    /// A handler first waits (up to 10 s) until `expected` run, or every
    /// request has started: on a loaded machine a session may register
    /// after the others have served everything, and a worker that ran
    /// more than `expected` at once would show it meanwhile.
    private func mostAtOnce(_ configuration: MajordomoWorker.Configuration, requests: Int, expected: Int) async throws -> Int {
        try await withBroker { context, endpoint in
            let inFlight = Atomic<Int>(0)
            let most = Atomic<Int>(0)
            let started = Atomic<Int>(0)
            let worker = MajordomoWorker(endpoint: endpoint, service: "pool", configuration: configuration, context: context, logger: quiet)
            let serving = Task {
                try await worker.run { body in
                    started.add(1, ordering: .relaxed)
                    most.max(inFlight.add(1, ordering: .relaxed).newValue, ordering: .relaxed)
                    let deadline = ContinuousClock.now + .seconds(10)
                    while inFlight.load(ordering: .relaxed) < expected, started.load(ordering: .relaxed) < requests, ContinuousClock.now < deadline {
                        try? await Task.sleep(for: .milliseconds(5))
                    }
                    try? await Task.sleep(for: .milliseconds(100))
                    inFlight.subtract(1, ordering: .relaxed)
                    return body
                }
            }
            let client = try patientClient(endpoint, context: context, correlationID: echoCorrelator)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<requests {
                    group.addTask {
                        let reply = try await client.request(service: "pool", body: [Frame("p\(index)")], correlationID: "p\(index)")
                        #expect(reply == [Frame("p\(index)")])
                    }
                }
                try await group.waitForAll()
            }
            worker.stop()
            try await serving.value
            return most.load(ordering: .relaxed)
        }
    }

    @Test func test_aSynchronousHandlerServesRequestsOnTheSessionThread() async throws {
        try await withBroker { context, endpoint in
            let worker = MajordomoWorker(endpoint: endpoint, service: "upper", configuration: workerConfiguration(), context: context, logger: quiet)
            let serving = Task { try await worker.run(synchronous: { body in body.map { Frame(($0.string ?? "").uppercased()) } }) }
            let client = try patientClient(endpoint, context: context, correlationID: { _ in nil })
            #expect(try await client.request(service: "upper", body: ["abc"], correlationID: nil) == ["ABC"])
            worker.stop()
            try await serving.value
        }
    }

    /// A handler that never waits answers on the session's own turn; one
    /// that waits answers when it resumes. One session, both kinds in turn:
    /// every request gets its own reply, none is lost or held back. (Slow
    /// heartbeats: a reply that missed its wake-up would wait for the
    /// session's next heartbeat, past the client's timeout.)
    @Test func test_handlersThatWaitAndHandlersThatDoNot_eachAnswerTheirOwnRequest_onOneSession() async throws {
        try await withBroker(heartbeat: .seconds(5)) { context, endpoint in
            var configuration = workerConfiguration(heartbeat: .seconds(5))
            configuration.sessions = 1
            let worker = MajordomoWorker(endpoint: endpoint, service: "mixed", configuration: configuration, context: context, logger: quiet)
            let serving = Task {
                try await worker.run { body in
                    if let text = body.first?.string, text.hasSuffix("wait") { try? await Task.sleep(for: .milliseconds(5)) }
                    return body.map { Frame("re: " + ($0.string ?? "")) }
                }
            }
            let client = try patientClient(endpoint, context: context, correlationID: { _ in nil })
            for index in 0..<20 {
                let text = index % 3 == 0 ? "\(index) wait" : "\(index) now"
                let reply = try await client.request(service: "mixed", body: [Frame(text)], correlationID: nil, timeout: .seconds(2))
                #expect(reply == [Frame("re: " + text)])
            }
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
            let client = try patientClient(endpoint, context: context, correlationID: echoCorrelator)
            let reply = try await client.request(service: "slow", body: ["job"], correlationID: "job", timeout: .seconds(5))
            #expect(reply == ["job"])
            // Expired mid-request, the worker would have been handed the job again.
            #expect(calls.load(ordering: .relaxed) == 1)
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
            guard try await readable(&poller, within: .milliseconds(100)), let message = try silentBroker.receive() else { continue }
            if Array(message.dropFirst()) == MDP.ready(service: "echo") { readies.append(message[0]) }
        }
        // Heartbeats alone never get an answer here; after 3 × 100 ms the worker gives up on this socket.
        #expect(readies.count == 2)
        #expect(Set(readies).count == 2, "the second READY must come from a new socket")
        worker.stop()
        try await serving.value
    }

    /// A session whose broker falls silent mid-request registers again
    /// only when that request's handler is done: registering at once would
    /// let a new broker hand it a second request while the first still
    /// runs, more at once than the worker has sessions.
    @Test func test_whenTheBrokerFallsSilentMidRequest_thenTheSessionRegistersAgainOnlyOnceItsHandlerIsDone() async throws {
        try await withDirectory { directory in
            let context = try Context()
            let endpoint = "ipc://\(directory)/silent.ipc"
            let silentBroker = try Socket(context, .router)
            try silentBroker.bind(endpoint)
            defer { silentBroker.close() }
            var configuration = workerConfiguration()
            configuration.sessions = 1
            let handled = Atomic<Int>(0)
            let worker = MajordomoWorker(endpoint: endpoint, service: "echo", configuration: configuration, context: context, logger: quiet)
            let serving = Task {
                try await worker.run { body in
                    try? await Task.sleep(for: .milliseconds(1500))  // past the worker's 300 ms liveness, five times over
                    handled.add(1, ordering: .relaxed)
                    return body
                }
            }
            defer { worker.stop() }

            var readies: [(identity: Frame, handledBefore: Int)] = []
            var poller = Poller()
            poller.addReadable(silentBroker)
            let deadline = ContinuousClock.now + .seconds(20)
            while readies.count < 2, ContinuousClock.now < deadline {
                guard try await readable(&poller, within: .milliseconds(100)), let message = try silentBroker.receive() else { continue }
                guard Array(message.dropFirst()) == MDP.ready(service: "echo") else { continue }
                readies.append((message[0], handled.load(ordering: .relaxed)))
                if readies.count == 1 { try silentBroker.send(requestMessage(to: message[0], from: "client")) }
            }
            #expect(readies.count == 2, "the session registers again after its broker fell silent")
            #expect(readies.map(\.handledBefore) == [0, 1], "the second READY waits for the first request's handler")
            #expect(Set(readies.map(\.identity)).count == readies.count, "the second READY comes from a new socket")
            worker.stop()
            try await serving.value
        }
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
            let end = ContinuousClock.now + .milliseconds(1500)
            while ContinuousClock.now < end {
                guard try await readable(&poller, within: .milliseconds(20)), let message = try refusing.receive() else { continue }
                if Array(message.dropFirst()) == MDP.ready(service: "echo") {
                    readies += 1
                    try refusing.send([message[0]] + MDP.disconnect)
                }
            }
            // One retry at once, then back-off of 50, 100, 200, 400, 800 ms: about
            // seven in 1.5 s. Spinning would be hundreds.
            #expect(readies >= 2 && readies <= 10, "\(readies) READY messages")
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

    /// A wildcard is a place to bind, not one to connect to: a worker given
    /// one fails as it starts, naming it, rather than trying for ever.
    @Test(arguments: ["tcp://*:5555", "tcp://127.0.0.1:*"])
    func test_aWorkerGivenAWildcardToConnectTo_failsAsItStarts(endpoint: String) async throws {
        let worker = MajordomoWorker(endpoint: endpoint, service: "echo", configuration: workerConfiguration(), context: try Context(), logger: quiet)
        let error = await #expect(throws: ZMQError.self) { try await worker.run { $0 } }
        #expect(error?.code == EINVAL && error?.description.contains(endpoint) == true, "\(String(describing: error))")
    }

    @Test func test_whenStoppedBeforeItStarts_thenRunStillReturns() async throws {
        try await withBroker { context, endpoint in
            let worker = MajordomoWorker(endpoint: endpoint, service: "echo", configuration: workerConfiguration(), context: context, logger: quiet)
            worker.stop()
            let returned = Mutex(false)
            let running = Task {
                try await worker.run { $0 }
                returned.withLock { $0 = true }
            }
            let ended = await eventually(within: .seconds(10)) { returned.withLock { $0 } }
            #expect(ended, "run returns when stopped before it started")
            running.cancel()
            if ended { try await running.value }
        }
    }
}
