import Foundation
import TestSupport
import TestTraits
import Testing
@testable import ZeroMQ
#if canImport(Glibc)
import Glibc
#endif

/// Our own ZMTP ends (`StreamRouter`, `StreamDealer`) against libzmq's
/// sockets and against each other, on real ipc:// files and real TCP
/// connections over loopback: each test runs on both.
@Suite("ZMTP over ipc:// and tcp://", .ownThread, .timeLimit(.minutes(5)))
struct StreamTransportTests {
    let limits = ZMTP.Limits(maxFrameSize: 16 << 20, maxFrames: 64)

    @Test(arguments: Carrier.allCases) func test_aLibzmqDealer_reachesTheStreamRouterUnderItsIdentity_andGetsItsReply(_ carrier: Carrier) async throws
    {
        try await onOwnThread {
            try withDirectory { directory in
                let pump = try RouterPump(ZMTP.Limits(maxFrameSize: 1 << 20, maxFrames: 8), at: carrier.endpoint(in: directory))
                let context = try Context()
                let dealer = try Socket(context, .dealer)
                try dealer.set(.routingID, Array("worker-1".utf8))
                try dealer.connect(pump.endpoint)
                try dealer.send(["", "a", "b"])
                #expect(pump.run { pump.received.count == 1 })
                #expect(pump.received.first == ["worker-1", "", "a", "b"])
                #expect(pump.router.send(["worker-1", "", "reply"]))
                pump.router.flush()
                #expect(try receiveHere(dealer) == ["", "reply"])
                #expect(!pump.router.send(["nobody", "x"]), "a routing id no peer has is reported, as ROUTER_MANDATORY does")
            }
        }
    }

    /// Frame headers are two bytes up to 255 bytes of body and nine past
    /// it; a message's frames are written into room made for all of them.
    @Test(arguments: Carrier.allCases) func test_framesEitherSideOfTheLongHeader_arriveWhole_inOneMessage(_ carrier: Carrier) async throws {
        try await onOwnThread {
            try withDirectory { directory in
                let pump = try RouterPump(limits, at: carrier.endpoint(in: directory))
                let dealer = try Socket(try Context(), .dealer)
                try dealer.set(.routingID, Array("w".utf8))
                try dealer.connect(pump.endpoint)
                try dealer.send(["hello"])
                #expect(pump.run { pump.received.count == 1 })
                let frames = [0, 1, 254, 255, 256, 257, 70_000].map { size in Frame((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ size) }) }
                #expect(pump.router.send(["w"] + frames))
                #expect(pump.router.send(["w", "after"]))
                pump.router.flush()
                #expect(try receiveHere(dealer) == frames)
                #expect(try receiveHere(dealer) == ["after"])
            }
        }
    }

    @Test(arguments: Carrier.allCases) func test_aDealerWithoutIdentity_isGivenOne_thatItsRepliesFollow(_ carrier: Carrier) async throws {
        try await onOwnThread {
            try withDirectory { directory in
                let pump = try RouterPump(limits, at: carrier.endpoint(in: directory))
                let dealer = try Socket(try Context(), .dealer)
                try dealer.connect(pump.endpoint)
                try dealer.send(["hello"])
                #expect(pump.run { pump.received.count == 1 })
                let id = try #require(pump.received.first?.first)
                #expect(id.count == 6 && id.bytes.prefix(2) == [0, 1])
                #expect(pump.router.send([id, "back"]))
                pump.router.flush()
                #expect(try receiveHere(dealer) == ["back"])
            }
        }
    }

    @Test(arguments: Carrier.allCases) func test_theStreamDealer_reachesALibzmqRouter_andGetsItsReply(_ carrier: Carrier) async throws {
        try await onOwnThread {
            try withDirectory { directory in
                let router = try Socket(try Context(), .router)
                try router.bind(carrier.endpoint(in: directory))
                let endpoint = try #require(router.lastEndpoint)
                let dealer = StreamDealer(endpoint: endpoint, identity: Array("d-1".utf8), limits: limits)
                dealer.send(["", "hi"])
                var got: [Frame]?
                let deadline = ContinuousClock.now + .seconds(2)
                while got == nil, ContinuousClock.now < deadline {
                    _ = try dealer.wait(orFileDescriptor: -1, timeout: .milliseconds(10))
                    got = try receiveHere(router, within: .milliseconds(10))
                }
                #expect(got == ["d-1", "", "hi"])
                try router.send(["d-1", "", "back"])
                #expect(try take(from: dealer, count: 1) == [["", "back"]])
            }
        }
    }

    @Test(arguments: Carrier.allCases) func test_dealerAndRouter_carryLargeFramesAndManyMessages_inOrder(_ carrier: Carrier) async throws {
        try await onOwnThread {
            try withDirectory { directory in
                let pump = try RouterPump(limits, at: carrier.endpoint(in: directory))
                let dealer = StreamDealer(endpoint: pump.endpoint, identity: nil, limits: limits)
                let large = Frame((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
                dealer.send(["", large])
                for number in 0..<200 { dealer.send(["", Frame("\(number)")]) }
                #expect(pump.run(driving: dealer) { pump.received.count == 201 })
                #expect(pump.received.first?.last == large)
                #expect(pump.received.dropFirst().map { $0.last?.string } == (0..<200).map { "\($0)" })
                // Echo each back; the dealer gets them in the order sent.
                for message in pump.received { #expect(pump.router.send(message)) }
                pump.router.flush()
                var echoed: [[Frame]] = []
                #expect(
                    pump.run(driving: dealer) {
                        while let message = dealer.receive() { echoed.append(message) }
                        return echoed.count == 201
                    })
                #expect(echoed.first == ["", large])
                #expect(echoed.dropFirst().map { $0.last?.string } == (0..<200).map { "\($0)" })
            }
        }
    }

    @Test(arguments: Carrier.allCases) func test_aDealerStartedBeforeItsRouter_connectsWhenItAppears_andDeliversWhatItHeld(_ carrier: Carrier)
        async throws
    {
        try await onOwnThread {
            try withDirectory { directory in
                let endpoint = try carrier.unusedEndpoint(in: directory)
                let dealer = StreamDealer(endpoint: endpoint, identity: Array("early".utf8), limits: limits)
                #expect(!dealer.isConnected)
                dealer.send(["", "held"])
                _ = try dealer.wait(orFileDescriptor: -1, timeout: .milliseconds(20))
                let pump = try RouterPump(limits, at: endpoint)
                #expect(pump.run(driving: dealer) { pump.received.count == 1 })
                #expect(pump.received.first == ["early", "", "held"])
            }
        }
    }

    @Test(arguments: Carrier.allCases) func test_aSecondConnectionWithAnIdentityInUse_isRefused_andTheFirstKeepsWorking(_ carrier: Carrier)
        async throws
    {
        try await onOwnThread {
            try withDirectory { directory in
                let pump = try RouterPump(limits, at: carrier.endpoint(in: directory))
                let context = try Context()
                let first = try Socket(context, .dealer)
                try first.set(.routingID, Array("same".utf8))
                try first.connect(pump.endpoint)
                try first.send(["one"])
                #expect(pump.run { pump.received.count == 1 })
                let second = try Socket(context, .dealer)
                try second.set(.routingID, Array("same".utf8))
                try second.connect(pump.endpoint)
                try second.send(["two"])
                #expect(pump.run { pump.problems.contains { $0.contains("already connected") } })
                try first.send(["three"])
                #expect(pump.run { pump.received.count == 2 })
                #expect(pump.received.map { $0.last } == ["one", "three"])
            }
        }
    }

    @Test(arguments: Carrier.allCases) func test_aPeerThatCannotTalkToARouter_isRefused_namingItsSocketType(_ carrier: Carrier) async throws {
        try await onOwnThread {
            try withDirectory { directory in
                let pump = try RouterPump(limits, at: carrier.endpoint(in: directory))
                let publisher = try Socket(try Context(), .publish)
                try publisher.connect(pump.endpoint)
                #expect(pump.run { pump.problems.contains { $0.contains("\"PUB\"") } })
                #expect(pump.router.peerCount == 0)
            }
        }
    }

    @Test(arguments: Carrier.allCases) func test_aFrameOverTheLimit_costsTheSenderItsConnection_andIsNeverDelivered(_ carrier: Carrier) async throws {
        try await onOwnThread {
            try withDirectory { directory in
                let pump = try RouterPump(ZMTP.Limits(maxFrameSize: 1000, maxFrames: 8), at: carrier.endpoint(in: directory))
                let dealer = try Socket(try Context(), .dealer)
                try dealer.set(.routingID, Array("big".utf8))
                try dealer.connect(pump.endpoint)
                try dealer.send(["small"])
                #expect(pump.run { pump.received.count == 1 })
                try dealer.send([Frame([UInt8](repeating: 1, count: 2000))])
                #expect(pump.run { pump.problems.contains { $0.contains("2000 bytes is over the limit of 1000") } })
                #expect(pump.received.count == 1)
            }
        }
    }

    @Test(arguments: Carrier.allCases) func test_aMessageWithTooManyFrames_isDropped_andSaysSo(_ carrier: Carrier) async throws {
        try await onOwnThread {
            try withDirectory { directory in
                let pump = try RouterPump(ZMTP.Limits(maxFrameSize: 1000, maxFrames: 3), at: carrier.endpoint(in: directory))
                let dealer = try Socket(try Context(), .dealer)
                try dealer.set(.routingID, Array("many".utf8))
                try dealer.connect(pump.endpoint)
                try dealer.send(["1", "2", "3", "4"])
                try dealer.send(["1", "2", "3"])
                #expect(pump.run { pump.received.count == 1 })
                #expect(pump.received.first == ["many", "1", "2", "3"])
                #expect(pump.problems.contains { $0.contains("too many frames dropped: a message of 4 frames (at most 3)") })
            }
        }
    }

    @Test(arguments: Carrier.allCases) func test_aPeerThatDoesNotSpeakZMTP_isRefused_andClosed(_ carrier: Carrier) async throws {
        try await onOwnThread {
            try withDirectory { directory in
                let pump = try RouterPump(limits, at: carrier.endpoint(in: directory))
                let raw = try #require(rawConnection(to: pump.endpoint))
                defer { close(raw) }
                let request = Array("GET / HTTP/1.1\r\nHost: localhost\r\nUser-Agent: test\r\nAccept: */*\r\n\r\n".utf8)
                #expect(write(raw, request, request.count) == request.count)
                #expect(pump.run { pump.problems.contains { $0.contains("does not speak ZMTP") } })
                // What it reads: our greeting, an ERROR naming why, then the end.
                var buffer = [UInt8](repeating: 0, count: 4096)
                var total: [UInt8] = []
                while true {
                    let count = read(raw, &buffer, buffer.count)
                    if count <= 0 { break }
                    total += buffer[..<count]
                }
                #expect(String(decoding: total, as: UTF8.self).contains("ERROR"))
            }
        }
    }

    @Test(arguments: Carrier.allCases) func test_aStreamDealerRefusedByItsRouter_reportsWhy(_ carrier: Carrier) async throws {
        try await onOwnThread {
            try withDirectory { directory in
                let pump = try RouterPump(limits, at: carrier.endpoint(in: directory))
                let first = StreamDealer(endpoint: pump.endpoint, identity: Array("twin".utf8), limits: limits)
                first.send(["hello"])
                #expect(pump.run(driving: first) { pump.received.count == 1 })
                let second = StreamDealer(endpoint: pump.endpoint, identity: Array("twin".utf8), limits: limits)
                var problems: [PeerProblem] = []
                #expect(
                    pump.run(driving: second) {
                        problems += second.takeProblems()
                        return !problems.isEmpty
                    })
                #expect(problems.first?.kind == .peerError)
                #expect(problems.first?.detail.contains("routing id twin is already connected") == true, "\(problems)")
            }
        }
    }

    @Test(arguments: Carrier.allCases) func test_aZMTPPing_isAnsweredWithAPongCarryingItsContext(_ carrier: Carrier) async throws {
        try await onOwnThread {
            try withDirectory { directory in
                let pump = try RouterPump(limits, at: carrier.endpoint(in: directory))
                let raw = try #require(rawConnection(to: pump.endpoint))
                defer { close(raw) }
                var greeting = [UInt8](repeating: 0, count: 64)
                greeting[0] = 0xFF; greeting[9] = 0x7F; greeting[10] = 3; greeting[11] = 1
                greeting.replaceSubrange(12..<16, with: Array("NULL".utf8))
                #expect(write(raw, greeting, 64) == 64)
                // Our READY (Socket-Type DEALER), then PING with a TTL and the context "ctx".
                let property = [UInt8(11)] + Array("Socket-Type".utf8) + [0, 0, 0, 6] + Array("DEALER".utf8)
                let ready = [UInt8(5)] + Array("READY".utf8) + property
                let ping = [UInt8(4)] + Array("PING".utf8) + [0, 10] + Array("ctx".utf8)
                let bytes = [0x04, UInt8(ready.count)] + ready + [0x04, UInt8(ping.count)] + ping
                #expect(write(raw, bytes, bytes.count) == bytes.count)
                var received: [UInt8] = []
                let pong = [UInt8(0x04), 8, 4] + Array("PONGctx".utf8)
                #expect(
                    pump.run {
                        var buffer = [UInt8](repeating: 0, count: 512)
                        let count = recv(raw, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                        if count > 0 { received += buffer[..<count] }
                        return received.count >= pong.count
                            && (0...(received.count - pong.count)).contains { Array(received[$0..<($0 + pong.count)]) == pong }
                    }, "\(received)")
            }
        }
    }

    @Test(arguments: Carrier.allCases) func test_aPeerThatNeverFinishesItsHandshake_isClosedAfterTheTimeout(_ carrier: Carrier) async throws {
        try await onOwnThread {
            try withDirectory { directory in
                var limits = self.limits
                limits.handshakeTimeout = .milliseconds(300)
                let pump = try RouterPump(limits, at: carrier.endpoint(in: directory))
                let silent = try #require(rawConnection(to: pump.endpoint))
                defer { close(silent) }
                let started = ContinuousClock.now
                var closed = false
                #expect(
                    pump.run {
                        var buffer = [UInt8](repeating: 0, count: 256)
                        // Our greeting first; then the end of the connection.
                        while case let count = recv(silent, &buffer, buffer.count, Int32(MSG_DONTWAIT)), count >= 0 {
                            if count == 0 { closed = true; break }
                        }
                        return closed
                    })
                #expect(started.duration(to: .now) >= .milliseconds(300))
                #expect(pump.problems.contains { $0.contains("no ZMTP handshake within 0.3 seconds") }, "\(pump.problems)")
            }
        }
    }

    @Test func test_bindingWhereNoSocketCanBe_throwsNamingTheEndpointAndTheReason() async throws {
        let router = try StreamRouter(limits: limits)
        let endpoint = "ipc:///nonexistent-\(getpid())/r.ipc"
        let error = try #require(throws: ZMQError.self) { try router.bind(endpoint) }
        #expect(error.description.contains(endpoint))
        #expect(error.code == ENOENT)
        let long = "ipc:///tmp/" + String(repeating: "x", count: 200)
        let tooLong = try #require(throws: ZMQError.self) { try router.bind(long) }
        #expect(tooLong.code == ENAMETOOLONG)
        // A port another listener holds: as libzmq says it.
        let taken = try router.bind("tcp://127.0.0.1:*")
        let inUse = try #require(throws: ZMQError.self) { try StreamRouter(limits: limits).bind(taken) }
        #expect(inUse.code == EADDRINUSE && inUse.description.contains(taken))
    }
}

/// A `StreamRouter` driven on the test's thread, keeping what it received.
final class RouterPump {
    let router: StreamRouter
    let endpoint: String
    var received: [[Frame]] = []
    var problems: [String] = []  // each as PeerProblem's description

    init(_ limits: ZMTP.Limits, at endpoint: String, curve: CurveServerSetup? = nil) throws {
        router = try StreamRouter(limits: limits)
        self.endpoint = try router.bind(endpoint, curve: curve)
    }

    /// Polls until `done` or `within` passes; also drives `dealer`, which
    /// lives on the same thread. Returns `done()`.
    @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
    func run(driving dealer: StreamDealer? = nil, within: Duration = .seconds(3), until done: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + within
        while !done(), ContinuousClock.now < deadline {
            try? router.wait(timeout: .milliseconds(dealer == nil ? 10 : 1))
            while let message = router.receive() { received.append(message) }
            router.flush()
            problems += router.takeProblems().map(\.description)
            _ = try? dealer?.wait(orFileDescriptor: -1, timeout: .milliseconds(1))
        }
        return done()
    }

    @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
    func run(until done: () -> Bool) -> Bool { run(driving: nil, until: done) }
}

/// Waits for `count` messages on a dealer with no router on its thread.
@available(*, noasync, message: "blocks its thread: call it on a thread of its own")
func take(from dealer: StreamDealer, count: Int) throws -> [[Frame]] {
    var got: [[Frame]] = []
    let deadline = ContinuousClock.now + .seconds(2)
    while got.count < count, ContinuousClock.now < deadline {
        _ = try dealer.wait(orFileDescriptor: -1, timeout: .milliseconds(10))
        while let message = dealer.receive() { got.append(message) }
    }
    return got
}

/// A blocking socket connected to `endpoint`, for a test to write bytes
/// of its own choosing; nil when it cannot connect within a second.
@available(*, noasync, message: "blocks its thread: call it on a thread of its own")
func rawConnection(to endpoint: String) -> Int32? {
    guard let descriptor = StreamListener.connect(to: endpoint) else { return nil }
    var item = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
    var error: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    guard poll(&item, 1, 1000) == 1, getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length) == 0, error == 0 else {
        close(descriptor)
        return nil
    }
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
    return descriptor
}

/// The two carriers our own ZMTP runs on.
enum Carrier: CaseIterable, CustomTestStringConvertible {
    case ipc, tcp

    var testDescription: String { self == .ipc ? "ipc://" : "tcp://" }

    /// Where a router binds: a file in `directory`, or a port of loopback
    /// the kernel picks (the router reports which).
    func endpoint(in directory: String, name: String = "r") -> String {
        self == .ipc ? "ipc://\(directory)/\(name).ipc" : "tcp://127.0.0.1:*"
    }

    /// An endpoint nothing listens on yet, to be bound later: for tcp://, a
    /// port the kernel handed out and that was let go at once.
    func unusedEndpoint(in directory: String) throws -> String {
        guard self == .tcp else { return endpoint(in: directory, name: "late") }
        let listener = try StreamListener(endpoint: "tcp://127.0.0.1:*")
        defer { listener.close() }
        return listener.endpoint
    }
}
