import Foundation
import TestSupport
import Testing
import Wire
import ZeroMQ

/// The real `gateway` and `echo-worker` processes, talking over ipc://.
/// Serialized: each test starts its own processes, and timing-sensitive
/// ones should not share two cores with another test's processes.
@Suite("Gateway with real processes", .serialized, .timeLimit(.minutes(5)))
struct GatewayIntegrationTests {
    @Test func test_requestsAreRoutedByServiceName() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startGateway(context: context)
        let echoPid = try await harness.startEcho("echo", service: "echo", context: context)
        let otherPid = try await harness.startEcho("other", service: "other", context: context)
        let client = try GatewayClient(endpoint: harness.gatewayEndpoint, context: context)

        let viaEcho = try await client.echo("echo", params: ["text": "hi"])
        let viaOther = try await client.echo("other")
        #expect(viaEcho["service"] == "echo" && viaEcho.pid == echoPid)
        #expect(viaEcho["params"] == ["text": "hi"])
        #expect(viaOther["service"] == "other" && viaOther.pid == otherPid)
    }

    @Test func test_workIsSpreadOverEveryWorkerOfAService() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startGateway(context: context)
        let first = try await harness.startEcho("w1", ["--delay", "20ms"], context: context)
        let second = try await harness.startEcho("w2", ["--delay", "20ms"], context: context)
        let client = try GatewayClient(endpoint: harness.gatewayEndpoint, context: context)

        let pids = try await withThrowingTaskGroup(of: Int32?.self) { group in
            for _ in 0..<20 { group.addTask { try await client.echo().pid } }
            return try await group.reduce(into: Set<Int32>()) { if let pid = $1 { $0.insert(pid) } }
        }
        #expect(pids == [first, second])
    }

    @Test func test_whenAWorkerIsKilledMidRequest_thenAnotherWorkerAnswers() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        let heartbeat = ["--heartbeat-interval", "200ms"]
        try await harness.startGateway(["--heartbeat-interval", "200ms"], context: context)
        try await harness.startEcho("doomed", ["--delay", "300s"] + heartbeat, context: context)
        // No retry, and time enough: only the gateway's handing the request on
        // can bring the survivor's answer. With a 2 s timeout and retries, a
        // loaded machine could start the survivor after the client had
        // already sent the request again, and the retry answered instead.
        // The one attempt's time covers the request reaching the doomed
        // worker, the survivor's start and the death found: 10 s was once
        // too little in a loaded full run.
        let client = try GatewayClient(endpoint: harness.gatewayEndpoint, context: context, timeout: .seconds(60), retries: 0)

        let answer = Task { try await client.echo() }
        let busy = await eventually { (try? await client.status().processes.first?.busy) == 1 }
        #expect(busy)
        let survivor = try await harness.startEcho("survivor", heartbeat, context: context)
        await harness.kill("doomed")

        #expect(try await answer.value.pid == survivor)
        // The gateway finds the dead worker on its next heartbeat (unreachable)
        // or by its silence (expired), forgets it, and hands its request on.
        let status = try await client.status()
        #expect(status.processes.map(\.pid) == [survivor])
        #expect(status.totals.requeued == 1)
    }

    @Test func test_whenTheGatewayRestarts_thenWorkersRegisterAgainWithinTwoHeartbeats() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        let interval = Duration.seconds(1)
        let settings = ["--heartbeat-interval", "1s"]
        try await harness.startGateway(settings, context: context)
        try await harness.startEcho("worker", settings, context: context)
        await harness.kill("gateway")

        try await harness.startGateway(settings, name: "gateway-2", context: context)
        let restarted = ContinuousClock.now
        let probe = try GatewayClient(endpoint: harness.gatewayEndpoint, context: context, timeout: .milliseconds(200), retries: 0)
        let registered = await eventually(within: interval * 4) { (try? await probe.mmiService("echo")) == "200" }
        let took = restarted.duration(to: .now)
        #expect(registered)
        #expect(took <= interval * 2, "took \(took)")
        // Served, too: asked with the patience of a real client (the probe's
        // 0.2 s, one attempt, is for looking often, and a busy machine can miss it).
        let client = try GatewayClient(endpoint: harness.gatewayEndpoint, context: context, timeout: .seconds(5), retries: 0)
        #expect(try await client.echo()["service"] == "echo")
    }

    /// Clients come and go on one ZeroMQ context while the gateway is
    /// killed and restarted: each new one connects. (A client that closed
    /// its connection monitor's end while libzmq still had events for it
    /// once blocked the context's I/O thread, and no client connected again.)
    @Test func test_throughRepeatedGatewayRestarts_everyNewClientOnOneContextConnects() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startGateway(context: context)
        try await harness.startEcho("worker", context: context)
        var unanswered: [Int] = []
        for round in 1...20 {
            await harness.kill(round == 1 ? "gateway" : "gateway-\(round - 1)")
            try harness.start("gateway-\(round)", "gateway", [])
            let probe = try GatewayClient(endpoint: harness.gatewayEndpoint, context: context, timeout: .milliseconds(200), retries: 0)
            if await !eventually(within: .seconds(5), { (try? await probe.mmiService("echo")) != nil }) { unanswered.append(round) }
        }
        #expect(unanswered.isEmpty, "rounds whose new client got no answer: \(unanswered)")
    }

    @Test func test_whenNoWorkerServesAService_thenTheClientIsToldServiceUnavailable() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startGateway(["--queue-wait", "300ms"], context: context)
        let client = try GatewayClient(endpoint: harness.gatewayEndpoint, context: context)

        let result = try await client.call(service: "nosuch", method: "anything")
        guard case .failure(let error) = result else {
            Issue.record("expected an error, got \(result)")
            return
        }
        #expect(error.code == .serviceUnavailable)
        #expect(error.message.contains("'nosuch'"))
    }

    @Test func test_whenAClientPassesItsOutstandingLimit_thenTheExtraRequestsAreToldBusy() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startGateway(["--client-limit", "3"], context: context)
        try await harness.startEcho("slow", ["--delay", "200ms"], context: context)
        let peer = try RawPeer(context, endpoint: harness.gatewayEndpoint)

        for index in 0..<8 { try peer.request("echo", id: .number(Int64(index))) }
        var busy: Set<JSONRPCID> = []
        var served: Set<JSONRPCID> = []
        for _ in 0..<8 {
            let (id, outcome) = try await peer.response()  // every request gets an answer
            switch outcome {
            case .success: served.insert(id)
            case .failure(let error):
                #expect(error.code == .busy)
                busy.insert(id)
            }
        }
        #expect(served == [.number(0), .number(1), .number(2)])
        #expect(busy == Set((3..<8).map { JSONRPCID.number(Int64($0)) }))
    }

    @Test func test_onSIGTERM_theRequestInProgressIsAnswered_andTheWaitingOneIsToldUnavailable() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        // The worker takes 3 s, well within an 8 s grace: room for a loaded
        // machine to deliver SIGTERM before the waiting request's turn comes.
        try await harness.startGateway(["--shutdown-grace", "8s"], context: context)
        // One request at a time (`--credit 1`): the second waits in the queue.
        try await harness.startEcho("slow", ["--delay", "3s", "--credit", "1"], context: context)
        let gateway = try #require(harness.process("gateway"))
        let peer = try RawPeer(context, endpoint: harness.gatewayEndpoint)
        for id in ["in-progress", "waiting"] { try peer.request("echo", id: .string(id)) }
        let client = try GatewayClient(endpoint: harness.gatewayEndpoint, context: context)
        #expect(await eventually { (try? await client.status().services.first { $0.name == "echo" }?.queued) == 1 })

        // Signalled here, not from a task a busy machine may start late (CI
        // once started it after the in-progress request was answered).
        gateway.signal(SIGTERM)
        let stopping = Task { await gateway.exit(within: .seconds(10)) }
        var outcomes: [JSONRPCID: Result<JSONValue, JSONRPCError>] = [:]
        for _ in 0..<2 {
            let (id, outcome) = try await peer.response()
            outcomes[id] = outcome
        }
        #expect(await stopping.value == 0)
        #expect((try? outcomes[.string("in-progress")]?.get())?["service"] == "echo")
        guard case .failure(let error)? = outcomes[.string("waiting")] else {
            Issue.record("the waiting request was not refused: \(String(describing: outcomes[.string("waiting")]))")
            return
        }
        #expect(error.code == .serviceUnavailable)
        #expect(error.message.contains("shutting down"))
    }

    @Test func test_onSIGTERM_everyRequestThatReachedTheGateway_isAnswered_evenOnesThatCameAsItStopped() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startGateway(context: context)
        try await harness.startEcho("worker", context: context)
        let gateway = try #require(harness.process("gateway"))
        let peers = try (0..<3).map { _ in try RawPeer(context, endpoint: harness.gatewayEndpoint) }
        // Connected and greeted first: a request that reaches the gateway is
        // then bytes waiting in its socket, unread while it is stopped.
        for peer in peers { try peer.request("echo", id: .string("hello")) }
        for peer in peers { _ = try await peer.response() }
        // Stopped, then told to stop: the requests arrive after the SIGTERM
        // was sent and before the gateway could see it.
        gateway.signal(SIGSTOP)
        gateway.signal(SIGTERM)
        for (index, peer) in peers.enumerated() {
            for n in 0..<20 { try peer.request("echo", id: .string("\(index)-\(n)")) }
        }
        try await Task.sleep(for: .milliseconds(200))  // out of the peers' queues, into the gateway's socket
        gateway.signal(SIGCONT)
        var answered = 0
        for peer in peers {
            for _ in 0..<20 {
                guard (try? await peer.response(within: .seconds(5))) != nil else { break }
                answered += 1
            }
        }
        #expect(answered == 60, "requests that reached the gateway as it stopped went unanswered")
        #expect(await harness.terminate("gateway") == 0)
    }

    @Test func test_onSIGTERM_theGatewayDisconnectsWorkers_removesItsSocket_andExitsZero() async throws {
        let harness = try ProcessHarness()
        defer { harness.shutdown() }
        let context = try Context()
        try await harness.startGateway(context: context)
        try await harness.startEcho("worker", context: context)
        #expect(FileManager.default.fileExists(atPath: "\(harness.directory)/gateway.ipc"))

        #expect(await harness.terminate("gateway") == 0)
        #expect(!FileManager.default.fileExists(atPath: "\(harness.directory)/gateway.ipc"))
        #expect(await eventually { harness.log("worker").contains("broker sent DISCONNECT") })
    }
}
