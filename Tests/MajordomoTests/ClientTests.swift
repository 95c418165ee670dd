import Foundation
import Logging
@testable import Majordomo
import Synchronization
import TestSupport
import TestTraits
import Testing
import ZeroMQ

@Suite("Client through a real broker", .serialized, .ownThread, .timeLimit(.minutes(5)))
struct ClientTests {
    @Test func test_whenManyRequestsAreInFlight_thenEachCallerGetsItsOwnReply() async throws {
        try await withBroker { context, endpoint in
            let worker = MajordomoWorker(endpoint: endpoint, service: "echo", configuration: workerConfiguration(), context: context, logger: quiet)
            let serving = Task { try await worker.run { $0 } }
            defer { worker.stop() }
            // 200 requests queue for one session, answered one at a time:
            // the last waits for all the others, which on a loaded machine
            // took longer than the default 3 s × 3 attempts. What is tested
            // is whose reply each caller gets, so the wait is generous.
            var configuration = MajordomoClient.Configuration()
            configuration.timeout = .seconds(30)
            let client = try MajordomoClient(
                endpoint: endpoint, configuration: configuration, context: context, logger: quiet, correlationID: echoCorrelator)
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

    @Test func test_whenMMIServiceIsAsked_thenTheUncorrelatedAnswerReachesTheCaller() async throws {
        try await withBroker { context, endpoint in
            let worker = MajordomoWorker(endpoint: endpoint, service: "echo", configuration: workerConfiguration(), context: context, logger: quiet)
            let serving = Task { try await worker.run { $0 } }
            let client = try patientClient(endpoint, context: context, correlationID: { _ in nil })
            // Until the worker has registered: on a loaded machine (CI, two
            // cores) that took longer than a second.
            var answer: [Frame] = []
            let deadline = ContinuousClock.now + .seconds(30)
            while ContinuousClock.now < deadline {
                answer = try await client.request(service: "mmi.service", body: ["echo"], correlationID: nil)
                if answer == ["200"] { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(answer == ["200"])
            #expect(try await client.request(service: "mmi.service", body: ["none"], correlationID: nil) == ["404"])
            worker.stop()
            try await serving.value
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
            let client = try MajordomoClient(
                endpoint: endpoint, context: context, logger: quiet,
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
        let client = try MajordomoClient(
            endpoint: "ipc:///tmp/mdp-nobody-\(getpid()).ipc", configuration: configuration,
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
        // Room to answer the second attempt before the client gives it up, on a loaded machine too
        // (at 200 ms a fresh clone's loaded run missed it once: the third attempt then went unanswered).
        configuration.timeout = .seconds(1)
        let client = try MajordomoClient(
            endpoint: endpoint, configuration: configuration, context: context, logger: quiet, correlationID: echoCorrelator)
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
        let client = try MajordomoClient(
            endpoint: "ipc:///tmp/mdp-cancel-\(getpid()).ipc", context: context, logger: quiet, correlationID: echoCorrelator)
        let waiting = Task { try await client.request(service: "echo", body: ["x"], correlationID: "x", timeout: .seconds(60)) }
        try await Task.sleep(for: .milliseconds(50))
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
    }

    @Test func test_whenTheClientIsClosed_thenWaitingRequestsFailWithClosed() async throws {
        let context = try Context()
        let client = try MajordomoClient(
            endpoint: "ipc:///tmp/mdp-closed-\(getpid()).ipc", context: context, logger: quiet, correlationID: echoCorrelator)
        let waiting = Task { try await client.request(service: "echo", body: ["x"], correlationID: "x", timeout: .seconds(60)) }
        try await Task.sleep(for: .milliseconds(50))
        client.close()
        await #expect(throws: MajordomoClientError.closed) { try await waiting.value }
    }
}
