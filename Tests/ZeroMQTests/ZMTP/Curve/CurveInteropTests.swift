import Foundation
import TestSupport
import TestTraits
import Testing
@testable import ZeroMQ

/// Our own ZMTP's CURVE against libzmq's, both ways, over real sockets
/// (tcp:// on loopback, and ipc:// as `POSTS_CURVE_IPC=1` asks): a libzmq
/// CURVE DEALER through our router, our dealer to a libzmq CURVE ROUTER
/// with its ZAP handler; admitted, refused, and given the wrong server key.
@Suite("CURVE with libzmq, both ways", .serialized, .ownThread, .timeLimit(.minutes(5)))
struct CurveInteropTests {
    let limits = ZMTP.Limits(maxFrameSize: 1 << 20, maxFrames: 16)

    /// Our router as a CURVE server admitting `allowed`, recording what it was asked.
    func ourServer(_ carrier: Carrier, in directory: String, allowed: Set<String>) throws -> (RouterPump, Curve.KeyPair, Recorded<ZAPHandler.Request>)
    {
        let pair = try Curve.generateKeyPair()
        let asked = Recorded<ZAPHandler.Request>()
        let setup = CurveServerSetup(keys: try #require(CurveKeys(pair))) { request in
            asked.append(request)
            return request.publicKey.map(allowed.contains) == true ? .allow : .deny(reason: "not on the list")
        }
        return (try RouterPump(limits, at: carrier.endpoint(in: directory), curve: setup), pair, asked)
    }

    /// A libzmq DEALER with CURVE keys, its handshakes watched.
    func libzmqClient(_ keys: Curve.KeyPair?, serverKey: String, to endpoint: String) throws -> (Socket, Recorded<HandshakeEvent>) {
        let context = try Context(security: Security(keys: keys, serverKey: serverKey, curveOnIPC: true))
        let dealer = try Socket(context, .dealer)
        try dealer.set(.routingID, Array("zmq-client".utf8))
        let seen = Recorded<HandshakeEvent>()
        try HandshakeWatch.watch(dealer) { seen.append($0) }
        try dealer.connect(endpoint)
        return (dealer, seen)
    }

    @Test(arguments: Carrier.allCases) func test_aLibzmqCurveDealer_isAdmittedByOurRouter_andMessagesGoBothWays(_ carrier: Carrier) async throws {
        try await onOwnThread {
            try withDirectory { directory in
                let client = try Curve.generateKeyPair()
                let (pump, server, asked) = try ourServer(carrier, in: directory, allowed: [client.publicKey])
                let (dealer, seen) = try libzmqClient(client, serverKey: server.publicKey, to: pump.endpoint)
                defer { dealer.close() }
                try dealer.send(["", "over", Frame([UInt8](repeating: 3, count: 70_000))])
                #expect(pump.run { pump.received.count == 1 }, "\(pump.problems)")
                #expect(pump.received.first == ["zmq-client", "", "over", Frame([UInt8](repeating: 3, count: 70_000))])
                #expect(asked.all.map(\.publicKey) == [client.publicKey])
                #expect(asked.all.first?.address == (carrier == .tcp ? "127.0.0.1" : ""))
                for number in 0..<50 { #expect(pump.router.send(["zmq-client", "", Frame("\(number)")])) }
                pump.router.flush()
                for number in 0..<50 { #expect(try receiveHere(dealer) == ["", Frame("\(number)")]) }
                // Reported from libzmq's monitor thread, perhaps after the messages.
                #expect(pump.run { seen.all.contains(.succeeded) }, "\(seen.all)")
            }
        }
    }

    @Test(arguments: Carrier.allCases) func test_aKeyOurRouterRefuses_isSeenByLibzmqAsRefused400_andNothingArrives(_ carrier: Carrier) async throws {
        try await onOwnThread {
            try withDirectory { directory in
                let (pump, server, _) = try ourServer(carrier, in: directory, allowed: [])
                let (dealer, seen) = try libzmqClient(try Curve.generateKeyPair(), serverKey: server.publicKey, to: pump.endpoint)
                defer { dealer.close() }
                try dealer.send(["", "let me in"])
                #expect(pump.run { seen.all.contains(.refused(status: 400)) }, "\(seen.all)")
                #expect(pump.received.isEmpty)
                #expect(pump.problems.contains { $0.contains("is not allowed") }, "\(pump.problems)")
            }
        }
    }

    @Test func test_aLibzmqClientGivenTheWrongServerKey_isClosedMidHandshake_andTheRouterSaysWhy() async throws {
        try await onOwnThread {
            try withDirectory { directory in
                let client = try Curve.generateKeyPair()
                let (pump, _, asked) = try ourServer(.tcp, in: directory, allowed: [client.publicKey])
                let (dealer, seen) = try libzmqClient(client, serverKey: try Curve.generateKeyPair().publicKey, to: pump.endpoint)
                defer { dealer.close() }
                try dealer.send(["", "x"])
                #expect(pump.run { seen.all.contains(.closedDuringHandshake) }, "\(seen.all)")
                #expect(pump.received.isEmpty && asked.all.isEmpty)
                #expect(pump.problems.contains { $0.contains("HELLO does not open") }, "\(pump.problems)")
            }
        }
    }

    /// A libzmq ROUTER with CURVE and a ZAP handler admitting `allowed`.
    func libzmqServer(allowed: Set<String>) throws -> (Socket, String, Curve.KeyPair, ZAPHandler) {
        let pair = try Curve.generateKeyPair()
        let context = try Context(security: Security(keys: pair))
        let zap = try ZAPHandler.start(context: context) { request in
            request.publicKey.map(allowed.contains) == true ? .allow : .deny(reason: "not on the list")
        }
        let router = try Socket(context, .router)
        try router.bind("tcp://127.0.0.1:*")
        return (router, try #require(router.lastEndpoint), pair, zap)
    }

    func ourClient(_ keys: Curve.KeyPair, serverKey: String, to endpoint: String) throws -> (StreamDealer, Recorded<HandshakeEvent>) {
        let seen = Recorded<HandshakeEvent>()
        let context = try Context(security: Security(keys: keys, serverKey: serverKey))
        let dealer = StreamDealer(
            endpoint: endpoint, identity: Array("our-client".utf8), limits: limits, curve: try context.curveClient(connecting: endpoint),
            handshake: { seen.append($0) })
        return (dealer, seen)
    }

    @Test func test_ourCurveDealer_isAdmittedByALibzmqRouter_andMessagesGoBothWays() async throws {
        try await onOwnThread {
            let client = try Curve.generateKeyPair()
            let (router, endpoint, server, zap) = try libzmqServer(allowed: [client.publicKey])
            defer { zap.stop() }
            let (dealer, seen) = try ourClient(client, serverKey: server.publicKey, to: endpoint)
            dealer.send(["", "hello", Frame([UInt8](repeating: 5, count: 300))])
            var got: [Frame]?
            let deadline = ContinuousClock.now + .seconds(3)
            while got == nil, ContinuousClock.now < deadline {
                _ = try dealer.wait(orFileDescriptor: -1, timeout: .milliseconds(10))
                got = try receiveHere(router, within: .milliseconds(10))
            }
            #expect(got == ["our-client", "", "hello", Frame([UInt8](repeating: 5, count: 300))])
            for number in 0..<50 { try router.send(["our-client", "", Frame("\(number)")]) }
            #expect(try take(from: dealer, count: 50) == (0..<50).map { ["", Frame("\($0)")] })
            #expect(seen.all == [.succeeded])
        }
    }

    @Test func test_ourCurveDealer_refusedByALibzmqRouter_reportsRefused400() async throws {
        try await onOwnThread {
            let (router, endpoint, server, zap) = try libzmqServer(allowed: [])
            defer { zap.stop() }
            defer { router.close() }
            let (dealer, seen) = try ourClient(try Curve.generateKeyPair(), serverKey: server.publicKey, to: endpoint)
            dealer.send(["", "let me in"])
            let deadline = ContinuousClock.now + .seconds(3)
            while seen.all.isEmpty, ContinuousClock.now < deadline { _ = try dealer.wait(orFileDescriptor: -1, timeout: .milliseconds(10)) }
            #expect(seen.all.first == .refused(status: 400))
        }
    }

    @Test func test_ourCurveDealer_givenTheWrongServerKey_reportsTheConnectionClosedMidHandshake() async throws {
        try await onOwnThread {
            let client = try Curve.generateKeyPair()
            let (router, endpoint, _, zap) = try libzmqServer(allowed: [client.publicKey])
            defer { zap.stop() }
            defer { router.close() }
            let (dealer, seen) = try ourClient(client, serverKey: try Curve.generateKeyPair().publicKey, to: endpoint)
            dealer.send(["", "x"])
            let deadline = ContinuousClock.now + .seconds(3)
            while seen.all.isEmpty, ContinuousClock.now < deadline { _ = try dealer.wait(orFileDescriptor: -1, timeout: .milliseconds(10)) }
            #expect(seen.all.first == .closedDuringHandshake)
        }
    }

    @Test func test_ourDealerAndOurRouter_speakCurveToEachOther() async throws {
        try await onOwnThread {
            try withDirectory { directory in
                let client = try Curve.generateKeyPair()
                let (pump, server, _) = try ourServer(.tcp, in: directory, allowed: [client.publicKey])
                let (dealer, seen) = try ourClient(client, serverKey: server.publicKey, to: pump.endpoint)
                for number in 0..<100 { dealer.send(["", Frame("\(number)")]) }
                #expect(pump.run(driving: dealer) { pump.received.count == 100 }, "\(pump.problems)")
                #expect(pump.received.map { $0.last?.string } == (0..<100).map { "\($0)" })
                #expect(seen.all == [.succeeded])
            }
        }
    }
}
