import Foundation
import Synchronization
import TestSupport
import TestTraits
import Testing
import ZeroMQ

@Suite("Socket patterns", .ownThread, .timeLimit(.minutes(5)))
struct SocketPatternTests {
    @Test func test_requestReply_roundTrips() async throws {
        let context = try Context()
        let (server, client) = try pair(context, .reply, .request)
        try client.send(["ping"])
        #expect(try await receive(server) == ["ping"])
        try server.send(["pong"])
        #expect(try await receive(client) == ["pong"])
    }

    @Test func test_routerSeesTheDealersRoutingID_andRoutesTheReplyBack() async throws {
        let context = try Context()
        let router = try Socket(context, .router)
        let endpoint = "inproc://router-\(UUID().uuidString)"
        try router.bind(endpoint)
        let dealer = try Socket(context, .dealer)
        try dealer.set(.routingID, Array("client-1".utf8))
        try dealer.connect(endpoint)
        try dealer.send(["", "a", "b"])
        #expect(try await receive(router) == ["client-1", "", "a", "b"])
        try router.send(["client-1", "", "reply"])
        #expect(try await receive(dealer) == ["", "reply"])
    }

    @Test func test_subscriberGetsOnlyTopicsItSubscribedTo() async throws {
        let context = try Context()
        let (publisher, subscriber) = try pair(context, .publish, .subscribe)
        try subscriber.set(.subscribe, Array("posts".utf8))
        // Subscriptions travel asynchronously; publish until one arrives.
        var got: [Frame]? = nil
        for _ in 0..<50 where got == nil {
            try publisher.send(["other", "x"])
            try publisher.send(["posts", "1"])
            got = try await receive(subscriber, within: .milliseconds(20))
        }
        #expect(got == ["posts", "1"])
    }

    @Test func test_xpubSeesSubscriptionsSentThroughXsub() async throws {
        let context = try Context()
        let (xpub, subscriber) = try pair(context, .xpublish, .subscribe)
        try subscriber.set(.subscribe, Array("posts".utf8))
        #expect(try await receive(xpub) == [Frame([1] + Array("posts".utf8))])
        let (xsubBound, publisher) = try pair(context, .xsubscribe, .publish)
        try xsubBound.send([Frame([1] + Array("t".utf8))])
        var got: [Frame]? = nil
        for _ in 0..<50 where got == nil {
            try publisher.send(["t", "v"])
            got = try await receive(xsubBound, within: .milliseconds(20))
        }
        #expect(got == ["t", "v"])
    }

    @Test func test_pairSockets_carryMultipartMessagesWhole() async throws {
        let context = try Context()
        let (a, b) = try pair(context, .pair, .pair)
        try a.send([Frame(), "x", Frame([0, 1, 2])])
        #expect(try await receive(b) == [Frame(), "x", Frame([0, 1, 2])])
    }
}

@Suite("Socket behaviour", .ownThread, .timeLimit(.minutes(5)))
struct SocketBehaviourTests {
    @Test func test_receiveWithoutWaiting_returnsNilWhenNothingIsQueued() async throws {
        let context = try Context()
        let (a, _) = try pair(context, .pair, .pair)
        #expect(try a.receive(wait: false) == nil)
    }

    @Test func test_optionsReadBackWhatWasSet() async throws {
        let context = try Context()
        let socket = try Socket(context, .dealer)
        #expect(try socket.get(.linger) == 0)
        try socket.set(.linger, 250)
        try socket.set(.sendHighWaterMark, 10)
        try socket.set(.receiveHighWaterMark, 20)
        try socket.set(.maxMessageSize, 4096)
        try socket.set(.routingID, [1, 2, 3])
        #expect(try socket.get(.linger) == 250)
        #expect(try socket.get(.sendHighWaterMark) == 10)
        #expect(try socket.get(.receiveHighWaterMark) == 20)
        #expect(try socket.get(.maxMessageSize) == 4096)
        #expect(try socket.get(.routingID) == [1, 2, 3])
    }

    @Test func test_aBadEndpoint_failsWithErrnoAndLibzmqsText() async throws {
        let context = try Context()
        let socket = try Socket(context, .router)
        let error = try #require(throws: ZMQError.self) { try socket.bind("carrier-pigeon://nowhere") }
        #expect(error.code == EPROTONOSUPPORT)
        #expect(error.message == String(cString: strerror(EPROTONOSUPPORT)))
        #expect(error.description.contains("bind carrier-pigeon://nowhere"))
    }

    @Test func test_aWildcardTCPPortIsResolvedInLastEndpoint() async throws {
        let context = try Context()
        let socket = try Socket(context, .router)
        try socket.bind("tcp://127.0.0.1:*")
        let endpoint = try #require(socket.lastEndpoint)
        #expect(endpoint.hasPrefix("tcp://127.0.0.1:"))
        #expect(Int(endpoint.split(separator: ":").last ?? "") ?? 0 > 0)
    }

    @Test func test_aMessageOverTheMaximumSize_isNeverDelivered() async throws {
        let context = try Context()
        let server = try Socket(context, .router)
        try server.set(.maxMessageSize, 1024)
        try server.bind("tcp://127.0.0.1:*")
        let client = try Socket(context, .dealer)
        try client.connect(try #require(server.lastEndpoint))
        try client.send([Frame([UInt8](repeating: 7, count: 4096))])
        #expect(try await receive(server, within: .milliseconds(300)) == nil)
        // A well-behaved peer still gets through.
        let polite = try Socket(context, .dealer)
        try polite.connect(try #require(server.lastEndpoint))
        try polite.send(["small"])
        #expect(try await receive(server)?.last == "small")
    }

    @Test func test_shuttingTheContextDown_wakesABlockedReceiveWithETERM() async throws {
        let context = try Context()
        let outcome = Mutex<Bool?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            defer { done.signal() }
            guard let socket = try? Socket(context, .pair), (try? socket.bind("inproc://nobody-sends")) != nil else { return }
            do {
                _ = try socket.receive()
                outcome.withLock { $0 = false }
            } catch let error as ZMQError {
                outcome.withLock { $0 = error.isTerminated }
            } catch {}
        }.start()
        try await Task.sleep(for: .milliseconds(100))
        context.shutdown()
        let woken = try await onOwnThread { done.wait(timeout: .now() + 5) == .success }
        #expect(woken)
        #expect(outcome.withLock { $0 } == true)
    }

    /// A blocking poll, so on a thread of its own (which only measures:
    /// expectations are recorded back on the test's task).
    @Test func test_pollTimesOutWhenNothingArrives_andReportsReadableWhenSomethingDoes() async throws {
        let (idle, idleReadable, looked, arrived, arrivedReadable, stillThere) = try await onOwnThread {
            let context = try Context()
            let (a, b) = try pair(context, .pair, .pair)
            var poller = Poller()
            let index = poller.addReadable(b)
            let idle = try poller.poll(timeout: .milliseconds(10))
            let idleReadable = poller.isReadable(index)
            let looked = try poller.pollNow()
            try a.send(["x"])
            let arrived = try poller.poll(timeout: .seconds(2))
            return (idle, idleReadable, looked, arrived, poller.isReadable(index), try poller.pollNow())
        }
        #expect(idle == 0)
        #expect(!idleReadable)
        #expect(looked == 0)
        #expect(arrived == 1)
        #expect(arrivedReadable)
        #expect(stillThere == 1, "still there: a poll does not take the message")
    }

    /// The broker's wait: after a receive found nothing, a message sent
    /// later from another thread wakes it, and so does the waker; with
    /// neither, it times out. It blocks, so on a thread of its own.
    @Test func test_waitAfterDraining_wakesForALaterMessage_andForTheWaker() async throws {
        let (drained, timedOut, message, left, woken) = try await onOwnThread {
            let context = try Context()
            let endpoint = "ipc://\(NSTemporaryDirectory())zmq-wait-\(UUID().uuidString).ipc"
            let router = try Socket(context, .router)
            try router.bind(endpoint)
            defer { try? FileManager.default.removeItem(atPath: String(endpoint.dropFirst("ipc://".count))) }
            let waker = Waker()
            let drained = try router.receive(wait: false) == nil
            let timedOut = try Poller.waitAfterDraining(router, orFileDescriptor: waker.fileDescriptor, timeout: .milliseconds(20)) == false
            let sender = Thread {
                Thread.sleep(forTimeInterval: 0.05)
                guard let dealer = try? Socket(context, .dealer) else { return }
                try? dealer.set(.linger, 1000)
                try? dealer.connect(endpoint)
                _ = try? dealer.send(["", "hello"])
                dealer.close()
            }
            sender.start()
            let clock = ContinuousClock()
            var message: [Frame]?
            let deadline = clock.now + .seconds(5)
            while message == nil, clock.now < deadline {
                // Edge-triggered: each wake may bring the message, or only news
                // (a connection) that the next receive takes.
                _ = try Poller.waitAfterDraining(router, orFileDescriptor: waker.fileDescriptor, timeout: clock.now.duration(to: deadline))
                message = try router.receive(wait: false)
            }
            let left = try router.receive(wait: false)
            waker.wake()
            let woken = try Poller.waitAfterDraining(router, orFileDescriptor: waker.fileDescriptor, timeout: .seconds(2))
            return (drained, timedOut, message, left, woken)
        }
        #expect(drained)
        #expect(timedOut, "neither a message nor the waker: the wait times out")
        #expect(message?.last == "hello")
        #expect(left == nil)
        #expect(woken, "the waker wakes it")
    }

    @Test func test_curveEncryptedConnection_carriesMessages() async throws {
        try #require(Curve.isAvailable)
        let server = try Curve.generateKeyPair()
        let client = try Curve.generateKeyPair()
        #expect(server.publicKey.count == 40 && server.secretKey.count == 40)
        let context = try Context()
        let router = try Socket(context, .router)
        try router.set(.curveServer, true)
        try router.set(.curveSecretKey, server.secretKey)
        try router.bind("tcp://127.0.0.1:*")
        let dealer = try Socket(context, .dealer)
        try dealer.set(.curveServerKey, server.publicKey)
        try dealer.set(.curvePublicKey, client.publicKey)
        try dealer.set(.curveSecretKey, client.secretKey)
        try dealer.connect(try #require(router.lastEndpoint))
        try dealer.send(["secret"])
        #expect(try await receive(router)?.last == "secret")
    }
}
