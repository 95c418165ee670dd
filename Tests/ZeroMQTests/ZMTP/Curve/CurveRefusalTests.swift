import TestSupport
import TestTraits
import Testing
@testable import ZeroMQ

/// Every refusal of RFC 26, byte by byte: a box that does not open, a
/// replayed or decreasing nonce, a key the owner does not let in, a cookie
/// the server did not give, a vouch for something else, commands out of
/// order, and a peer of the wrong mechanism. Nothing is delivered from a
/// peer that is refused.
@Suite("CURVE refusals, byte by byte", .ownThread, .timeLimit(.minutes(5)))
struct CurveRefusalTests {
    let fixture = CurveFixture()
    var metadata: [UInt8] { ZMTPEncoder.metadata(socketType: "DEALER", identity: nil) }

    /// A server session after HELLO, what it wrote let go of.
    func welcomed() -> (ZMTPSession, RecordingDelegate) {
        var server = fixture.serverSession()
        var delegate = RecordingDelegate(prefix: "peer")
        server.feed(fixture.clientOpening, to: &delegate)
        server.output.removeFirst(server.output.count)
        return (server, delegate)
    }

    /// A server session in traffic with the fixture's client (its next nonce 3).
    func inTraffic() -> (ZMTPSession, RecordingDelegate) {
        var (server, delegate) = welcomed()
        server.feed(fixture.initiate(metadata: metadata), to: &delegate)
        server.output.removeFirst(server.output.count)
        return (server, delegate)
    }

    func clientMessage(_ frame: [UInt8], nonce: UInt64) -> [UInt8] {
        RawCurve.message(frame, nonce: nonce, fromClient: true, to: fixture.serverShort, from: fixture.clientShortSecret)
    }

    // MARK: HELLO: closed without a word

    @Test func test_aHELLOBoxedForAnotherServerKey_isDropped_withNothingSent() async {
        var server = fixture.serverSession()
        var delegate = RecordingDelegate()
        server.output.removeFirst(64)
        let stranger = CurveKeys(secret: [UInt8](repeating: 7, count: 32))
        server.feed(
            ZMTP.greeting(curve: .client(fixture.client, serverKey: stranger.publicKey))
                + RawCurve.hello(clientShort: fixture.clientShort, clientShortSecret: fixture.clientShortSecret, server: stranger.publicKey),
            to: &delegate)
        #expect(server.stage == .ended && server.failure?.kind == .refused)
        #expect(server.failure?.detail.contains("does not open") == true)
        #expect(server.written.isEmpty, "nothing, not even an ERROR, to whom cannot show it knows the key")
    }

    @Test(arguments: [0, 100, 150, 199])
    func test_aHELLOWithAByteChanged_isDropped_withNothingSent(at offset: Int) async {
        var server = fixture.serverSession()
        var delegate = RecordingDelegate()
        server.output.removeFirst(64)
        var opening = fixture.clientOpening
        // Past the greeting and the command's header, name and version.
        opening[64 + 2 + 6 + 2 + 72 + offset % 120] ^= 0x01
        server.feed(opening, to: &delegate)
        #expect(server.stage == .ended && server.written.isEmpty)
    }

    @Test func test_aHELLOOfTheWrongSizeOrVersion_isDropped() async {
        for hello in [
            RawCurve.command("HELLO", [1, 0] + [UInt8](repeating: 0, count: 100)),
            RawCurve.command("HELLO", [2, 0] + [UInt8](repeating: 0, count: 192)),
        ] {
            var server = fixture.serverSession()
            var delegate = RecordingDelegate()
            server.output.removeFirst(64)
            server.feed(ZMTP.greeting(curve: .client(fixture.client, serverKey: fixture.server.publicKey)) + hello, to: &delegate)
            #expect(server.stage == .ended && server.written.isEmpty)
        }
    }

    // MARK: INITIATE

    @Test func test_anINITIATEWithACookieThisServerDidNotGive_isRefused() async {
        var (server, delegate) = welcomed()
        let forged =
            fixture.cookieNonce
            + RawCurve.secretBox(
                fixture.clientShort + fixture.serverShortSecret, "COOKIE--", fixture.cookieNonce, key: [UInt8](repeating: 9, count: 32))
        server.feed(fixture.initiate(metadata: metadata, cookie: forged), to: &delegate)
        #expect(server.failure?.detail.contains("cookie") == true)
        #expect(delegate.readies == 0 && delegate.askedKeys.isEmpty)
        #expect(server.written.first == ZMTP.command, "an ERROR the client can read")
    }

    @Test func test_anINITIATEWhoseBoxWasChanged_isRefused() async {
        var (server, delegate) = welcomed()
        var initiate = fixture.initiate(metadata: metadata)
        initiate[initiate.count - 1] ^= 0x80
        server.feed(initiate, to: &delegate)
        #expect(server.failure?.detail.contains("does not open") == true)
        #expect(delegate.readies == 0 && delegate.askedKeys.isEmpty)
    }

    @Test func test_anINITIATEWhoseNonceDoesNotFollowHELLOs_isRefused() async {
        var (server, delegate) = welcomed()
        server.feed(fixture.initiate(metadata: metadata, nonce: 1), to: &delegate)
        #expect(server.failure?.detail.contains("does not follow") == true)
        #expect(delegate.readies == 0)
    }

    @Test func test_aVouchForAnotherServer_orAnotherShortTermKey_isRefused() async {
        let stranger = CurveKeys(secret: [UInt8](repeating: 7, count: 32)).publicKey
        for vouch in [fixture.clientShort + stranger, stranger + fixture.server.publicKey] {
            var (server, delegate) = welcomed()
            server.feed(fixture.initiate(metadata: metadata, vouchFor: vouch), to: &delegate)
            #expect(server.failure?.detail.contains("vouch") == true)
            #expect(delegate.readies == 0 && delegate.askedKeys.isEmpty)
        }
    }

    @Test func test_aKeyTheOwnerDoesNotLetIn_isToldZAPStatus400_asLibzmqTellsIt() async {
        var (server, delegate) = welcomed()
        delegate.refusedKeys = [fixture.client.publicKey]
        server.feed(fixture.initiate(metadata: metadata), to: &delegate)
        #expect(server.written == ZMTPEncoder.error(reason: "400"))
        #expect(server.failure?.kind == .refused && delegate.readies == 0)
        #expect(server.failure?.detail.contains(Curve.fingerprint(Curve.encode(fixture.client.publicKey)!)) == true, "the log names its key")
    }

    @Test func test_aClientToldStatus400_reportsItsKeyRefused() async {
        var client = fixture.clientSession()
        var delegate = RecordingDelegate()
        client.feed(ZMTP.greeting(curve: .server(fixture.server)), to: &delegate)
        client.feed(ZMTPEncoder.error(reason: "400"), to: &delegate)
        #expect(client.takeHandshakeOutcome() == .refused(status: 400))
        #expect(client.failure?.detail.contains("allow-list") == true)
    }

    @Test func test_aWELCOMEThatDoesNotOpen_isACryptographicFailure_forTheClient() async {
        var client = fixture.clientSession()
        var delegate = RecordingDelegate()
        client.feed(ZMTP.greeting(curve: .server(fixture.server)), to: &delegate)
        let box = RawCurve.box(
            fixture.serverShort + fixture.cookie, "WELCOME-", fixture.welcomeNonce, to: fixture.clientShort,
            from: [UInt8](repeating: 7, count: 32))
        client.feed(RawCurve.command("WELCOME", fixture.welcomeNonce + box), to: &delegate)
        #expect(client.takeHandshakeOutcome() == .cryptographic)
        #expect(client.stage == .ended)
    }

    // MARK: Order and mechanism

    @Test func test_commandsOutOfOrder_orInPlaintextAfterTheHandshake_areRefused_namingThem() async {
        var server = fixture.serverSession()
        var delegate = RecordingDelegate()
        server.feed(
            ZMTP.greeting(curve: .client(fixture.client, serverKey: fixture.server.publicKey)) + fixture.initiate(metadata: metadata), to: &delegate)
        #expect(server.failure?.detail.contains("INITIATE") == true)
        var ready = fixture.serverSession()
        ready.feed(ZMTP.greeting(curve: .client(fixture.client, serverKey: fixture.server.publicKey)) + ZMTPBytes.ready(), to: &delegate)
        #expect(ready.failure?.detail.contains("READY") == true)
        var (traffic, trafficDelegate) = inTraffic()
        traffic.feed(ZMTPBytes.command("PING", [0, 1]), to: &trafficDelegate)
        #expect(traffic.failure?.detail.contains("other than a MESSAGE") == true)
        var (plain, plainDelegate) = inTraffic()
        plain.feed(ZMTPBytes.message([[1, 2, 3]]), to: &plainDelegate)
        #expect(plain.stage == .ended && plainDelegate.messages.isEmpty, "a plaintext frame is no MESSAGE")
    }

    @Test func test_aPlaintextPeer_isRefused_atTheGreeting_andAClient_atAnotherClientsHELLO() async {
        var server = fixture.serverSession()
        var delegate = RecordingDelegate()
        server.feed(ZMTPBytes.opening, to: &delegate)
        #expect(server.failure?.detail == "it asks for the NULL mechanism; this endpoint speaks CURVE only")
        var client = fixture.clientSession()
        client.feed(ZMTPBytes.opening, to: &delegate)
        #expect(client.takeHandshakeOutcome() == .mechanismMismatch)
        // Two clients: each waits for a WELCOME the other never sends.
        var other = fixture.clientSession()
        other.feed(ZMTP.greeting(curve: .client(fixture.client, serverKey: fixture.server.publicKey)), to: &delegate)
        other.feed(fixture.clientOpening.dropFirst(64).map { $0 }, to: &delegate)
        #expect(other.failure?.detail.contains("HELLO") == true, "HELLO to a client is out of order")
        #expect(delegate.readies == 0)
    }

    // MARK: MESSAGE

    @Test func test_aMESSAGEWhoseBoxWasChanged_isRefused_andNothingDelivered() async {
        for offset in [16, 20, 33] {
            var (server, delegate) = inTraffic()
            var message = clientMessage(Array("hello!!".utf8), nonce: 3)
            message[2 + offset] ^= 0x04
            server.feed(message, to: &delegate)
            #expect(server.failure?.detail.contains("does not open") == true, "byte \(offset)")
            #expect(delegate.messages.isEmpty)
        }
    }

    @Test func test_aReplayedMESSAGE_isRefused_afterTheFirstIsDelivered() async {
        var (server, delegate) = inTraffic()
        let message = clientMessage([1], nonce: 3)
        server.feed(message + message, to: &delegate)
        #expect(delegate.messages == [["peer", Frame([1])]])
        #expect(server.failure?.detail.contains("replayed or out of order") == true)
    }

    @Test func test_aMESSAGEWhoseNonceGoesDown_isRefused() async {
        var (server, delegate) = inTraffic()
        server.feed(clientMessage([1], nonce: 7) + clientMessage([2], nonce: 5), to: &delegate)
        #expect(delegate.messages == [["peer", Frame([1])]])
        #expect(server.failure?.detail.contains("nonce 5 is not above the last one, 7") == true)
    }

    @Test func test_aMESSAGEBoxedTheOtherWay_doesNotOpen() async {
        var (server, delegate) = inTraffic()
        // The server's own direction: its nonce prefix, not the client's.
        server.feed(
            RawCurve.message([1], nonce: 3, fromClient: false, to: fixture.serverShort, from: fixture.clientShortSecret), to: &delegate)
        #expect(server.failure?.detail.contains("does not open") == true)
    }

    @Test func test_aMESSAGETooShortForItsBox_isRefused() async {
        var (server, delegate) = inTraffic()
        let body = [7] + Array("MESSAGE".utf8) + RawCurve.short(3) + [UInt8](repeating: 0, count: 10)
        server.feed(ZMTPBytes.header(size: body.count) + body, to: &delegate)
        #expect(server.failure?.kind == .refused && delegate.messages.isEmpty)
    }
}
