import Foundation
import Synchronization
import TestSupport
import TestTraits
import Testing
import ZeroMQ

/// CURVE set up by the context's `Security`, checked by a ZAP handler, with
/// each outcome seen by the client's handshake watch.
@Suite("CURVE and ZAP", .serialized, .ownThread, .timeLimit(.minutes(5)))
struct CurveTests {
    /// A gateway-like server: a ROUTER bound on tcp with CURVE, and a ZAP
    /// handler admitting `allowed`.
    final class Server {
        let keys: Curve.KeyPair
        let context: Context
        let router: Socket
        let endpoint: String
        let zap: ZAPHandler
        let asked = Recorded<ZAPHandler.Request>()

        init(allowed: Set<String>) throws {
            keys = try Curve.generateKeyPair()
            context = try Context(security: Security(keys: keys))
            let asked = self.asked
            zap = try ZAPHandler.start(context: context) { request in
                asked.append(request)
                return request.publicKey.map(allowed.contains) == true ? .allow : .deny(reason: "not on the list")
            }
            router = try Socket(context, .router)
            try router.bind("tcp://127.0.0.1:*")
            endpoint = try #require(router.lastEndpoint)
        }

        deinit { zap.stop() }
    }

    /// Connects a DEALER with `security`, sends, and returns the handshake
    /// outcomes it saw within a second.
    func connect(to server: Server, _ security: Security) throws -> (Socket, Recorded<HandshakeEvent>) {
        let context = try Context(security: security)
        let dealer = try Socket(context, .dealer)
        let seen = Recorded<HandshakeEvent>()
        try HandshakeWatch.watch(dealer) { event in seen.append(event) }
        try dealer.connect(server.endpoint)
        try dealer.send(["hello"])
        return (dealer, seen)
    }

    func waitFor(_ seen: Recorded<HandshakeEvent>, _ predicate: ([HandshakeEvent]) -> Bool) async -> [HandshakeEvent] {
        _ = await eventually(within: .seconds(5), every: .milliseconds(10)) { predicate(seen.all) }
        return seen.all
    }

    @Test func test_aKeyOnTheList_isAdmitted_andItsMessagesArrive() async throws {
        try #require(Curve.isAvailable)
        let client = try Curve.generateKeyPair()
        let server = try Server(allowed: [client.publicKey])
        let (dealer, seen) = try connect(to: server, Security(keys: client, serverKey: server.keys.publicKey))
        defer { dealer.close() }
        #expect(try await receive(server.router)?.last == "hello")
        #expect(await waitFor(seen) { $0.contains(.succeeded) } == [.succeeded])
        let request = try #require(server.asked.all.first)
        #expect(request.mechanism == "CURVE" && request.publicKey == client.publicKey && request.address == "127.0.0.1")
    }

    @Test func test_aKeyNotOnTheList_isRefused_theClientSeesWhy_andNothingArrives() async throws {
        try #require(Curve.isAvailable)
        let server = try Server(allowed: [])
        let (dealer, seen) = try connect(to: server, Security(keys: try Curve.generateKeyPair(), serverKey: server.keys.publicKey))
        defer { dealer.close() }
        #expect(await waitFor(seen) { !$0.isEmpty }.first == .refused(status: 400))
        #expect(try await receive(server.router, within: .milliseconds(300)) == nil)
    }

    @Test func test_aClientWithNoKey_meetsAMechanismMismatch_andNothingArrives() async throws {
        try #require(Curve.isAvailable)
        let server = try Server(allowed: [])
        let (dealer, seen) = try connect(to: server, .none)
        defer { dealer.close() }
        // Which end notices first is a race: the mismatch, or the server hanging up.
        let first = await waitFor(seen) { !$0.isEmpty }.first
        #expect(first == .mechanismMismatch || first == .closedDuringHandshake, "\(String(describing: first))")
        #expect(try await receive(server.router, within: .milliseconds(300)) == nil)
        #expect(server.asked.all.isEmpty, "the ZAP handler is never asked")
    }

    @Test func test_aClientGivenTheWrongServerKey_seesTheConnectionClosedMidHandshake() async throws {
        try #require(Curve.isAvailable)
        let client = try Curve.generateKeyPair()
        let server = try Server(allowed: [client.publicKey])
        let (dealer, seen) = try connect(to: server, Security(keys: client, serverKey: try Curve.generateKeyPair().publicKey))
        defer { dealer.close() }
        #expect(await waitFor(seen) { !$0.isEmpty }.first == .closedDuringHandshake)
        #expect(try await receive(server.router, within: .milliseconds(300)) == nil)
    }

    @Test func test_ipcStaysPlaintext_unlessCurveOnIPCIsAsked() async throws {
        let keys = try Curve.generateKeyPair()
        let security = Security(keys: keys, serverKey: keys.publicKey)
        #expect(security.usesCurve("tcp://10.0.0.1:5555"))
        #expect(!security.usesCurve("ipc:///tmp/x.ipc") && !security.usesCurve("inproc://x"))
        var onIPC = security
        onIPC.curveOnIPC = true
        #expect(onIPC.usesCurve("ipc:///tmp/x.ipc") && !onIPC.usesCurve("inproc://x"))
        #expect(!Security.none.usesCurve("tcp://10.0.0.1:5555"), "no keys: nothing to use")
        // One socket: ipc in plaintext, tcp with CURVE, side by side.
        let directory = try makeTemporaryDirectory("curve")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try Socket(try Context(security: Security(keys: keys)), .router)
        try server.bind("ipc://\(directory)/s.ipc")
        let plain = try Socket(try Context(), .dealer)
        try plain.connect("ipc://\(directory)/s.ipc")
        try plain.send(["plain"])
        #expect(try await receive(server)?.last == "plain")
    }

    @Test func test_keysConvert_andBadTextIsNoKey() async throws {
        let keys = try Curve.generateKeyPair()
        #expect(Curve.publicKey(forSecret: keys.secretKey) == keys.publicKey)
        let bytes = try #require(Curve.decode(keys.publicKey))
        #expect(bytes.count == 32 && Curve.encode(bytes) == keys.publicKey)
        for bad in ["", "short", String(repeating: "~", count: 40), keys.publicKey + "x"] {
            #expect(!Curve.isKey(bad) && Curve.publicKey(forSecret: bad) == nil, "\(bad)")
        }
    }
}

/// What another thread reported, in order.
final class Recorded<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])
    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
}
