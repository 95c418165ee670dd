import TestSupport
import TestTraits
import Testing
@testable import ZeroMQ

/// CURVE (RFC 26) in our own ZMTP, fed bytes, no socket: each command the
/// client and the server send is the one RFC 26 describes, byte for byte,
/// built here from libsodium's calls given the same keys and nonces
/// (known answers); then two sessions talk to each other.
@Suite("CURVE handshake, known answers", .ownThread, .timeLimit(.minutes(5)))
struct CurveHandshakeTests {
    let fixture = CurveFixture()

    @Test func test_theGreeting_namesCURVE_andWhichEndIsTheServer() async {
        let server = fixture.serverSession()
        let client = fixture.clientSession()
        #expect(Array(server.written[12..<17]) == Array("CURVE".utf8) && server.written[32] == 1)
        #expect(Array(client.written[12..<17]) == Array("CURVE".utf8) && client.written[32] == 0)
    }

    @Test func test_HELLO_isRFC26s_fromTheClientsShortTermKey_toTheServersKey() async {
        var client = fixture.clientSession()
        var delegate = RecordingDelegate()
        client.output.removeFirst(64)
        client.feed(ZMTP.greeting(curve: .server(fixture.server)), to: &delegate)
        let expected = RawCurve.hello(
            clientShort: fixture.clientShort, clientShortSecret: fixture.clientShortSecret, server: fixture.server.publicKey)
        #expect(client.written == expected)
        #expect(expected.count == 2 + 200, "a 200-byte command, as libzmq's")
    }

    @Test func test_WELCOME_boxesTheServersShortTermKey_andACookieOnlyItCanOpen() async throws {
        var server = fixture.serverSession()
        var delegate = RecordingDelegate()
        server.output.removeFirst(64)
        server.feed(fixture.clientOpening, to: &delegate)
        let welcome = server.written
        let box = RawCurve.box(
            fixture.serverShort + fixture.cookie, "WELCOME-", fixture.welcomeNonce, to: fixture.clientShort, from: fixture.server.secretKey)
        #expect(welcome == ZMTPBytes.header(size: 168, flags: ZMTP.command) + [7] + Array("WELCOME".utf8) + fixture.welcomeNonce + box)
        let opened = try #require(RawCurve.open(box, "WELCOME-", fixture.welcomeNonce, from: fixture.server.publicKey, to: fixture.clientShortSecret))
        #expect(Array(opened[0..<32]) == fixture.serverShort)
        #expect(server.stage == .handshake && delegate.readies == 0)
    }

    @Test func test_INITIATE_carriesTheCookieBack_theClientsKey_itsVouch_andItsMetadata() async {
        var client = fixture.clientSession(identity: Array("worker-1".utf8))
        var delegate = RecordingDelegate()
        client.feed(ZMTP.greeting(curve: .server(fixture.server)), to: &delegate)
        client.output.removeFirst(client.output.count)
        let box = RawCurve.box(
            fixture.serverShort + fixture.cookie, "WELCOME-", fixture.welcomeNonce, to: fixture.clientShort, from: fixture.server.secretKey)
        client.feed(RawCurve.command("WELCOME", fixture.welcomeNonce + box), to: &delegate)
        let metadata = CurveFixture.ourMetadata(socketType: "DEALER", identity: Array("worker-1".utf8))
        #expect(client.written == fixture.initiate(metadata: metadata))
    }

    @Test func test_READY_andEachMESSAGE_areBoxedUnderTheShortTermKeys_withNoncesThatCountUp() async throws {
        var server = fixture.serverSession()
        var delegate = RecordingDelegate(prefix: "peer")
        server.feed(fixture.clientOpening, to: &delegate)
        server.output.removeFirst(server.output.count)
        server.feed(fixture.initiate(metadata: ZMTPEncoder.metadata(socketType: "DEALER", identity: nil)), to: &delegate)
        #expect(delegate.askedKeys == [fixture.client.publicKey], "the client's long-term key is asked about")
        #expect(server.stage == .traffic && delegate.readies == 1)
        let ready = server.written
        let metadata = CurveFixture.ourMetadata(socketType: "ROUTER", identity: nil)
        let readyBox = RawCurve.box(metadata, "CurveZMQREADY---", RawCurve.short(1), to: fixture.clientShort, from: fixture.serverShortSecret)
        #expect(ready == RawCurve.command("READY", RawCurve.short(1) + readyBox))
        server.output.removeFirst(ready.count)

        server.append(["peer", "a", "bc"], from: 1)
        let expected =
            RawCurve.message(Array("a".utf8), more: true, nonce: 2, fromClient: false, to: fixture.clientShort, from: fixture.serverShortSecret)
            + RawCurve.message(Array("bc".utf8), nonce: 3, fromClient: false, to: fixture.clientShort, from: fixture.serverShortSecret)
        #expect(server.written == expected, "to a peer that did not ask for whole messages (libzmq): one MESSAGE a frame, MORE inside the box")

        server.feed(
            RawCurve.message([1, 2], more: true, nonce: 3, fromClient: true, to: fixture.serverShort, from: fixture.clientShortSecret)
                + RawCurve.message([3], nonce: 4, fromClient: true, to: fixture.serverShort, from: fixture.clientShortSecret),
            to: &delegate)
        #expect(delegate.messages == [["peer", Frame([1, 2]), Frame([3])]])
    }

    @Test func test_twoSessions_shakeHands_andCarryMessagesBothWays_heldOnesIncluded() async {
        var pair = CurvePair(fixture, identity: Array("w1".utf8))
        pair.client.append([Frame("sent"), Frame("early")])
        pair.shuttle()
        #expect(pair.client.stage == .traffic && pair.server.stage == .traffic)
        #expect(pair.client.takeHandshakeOutcome() == .succeeded)
        #expect(pair.serverDelegate.messages == [["peer", "sent", "early"]], "what was sent before the handshake ended arrives after it")
        pair.server.append(["peer", "", Frame([UInt8](repeating: 9, count: 700))], from: 1)
        pair.client.append([Frame("again")])
        pair.shuttle()
        #expect(pair.clientDelegate.messages == [["", Frame([UInt8](repeating: 9, count: 700))]])
        #expect(pair.serverDelegate.messages.last == ["peer", "again"])
    }

    @Test func test_aBoxedPING_isAnsweredWithABoxedPONG_echoingItsContext() async throws {
        var pair = CurvePair(fixture)
        pair.shuttle()
        let ping = [4] + Array("PING".utf8) + [0, 10] + Array("ctx".utf8)
        pair.server.output.removeFirst(pair.server.output.count)
        pair.server.feed(
            RawCurve.message(ping, command: true, nonce: 3, fromClient: true, to: fixture.serverShort, from: fixture.clientShortSecret),
            to: &pair.serverDelegate)
        let pong = [4] + Array("PONG".utf8) + Array("ctx".utf8)
        #expect(
            pair.server.written
                == RawCurve.message(pong, command: true, nonce: 2, fromClient: false, to: fixture.clientShort, from: fixture.serverShortSecret))
        #expect(pair.serverDelegate.messages.isEmpty)
    }

    @Test func test_aBoxedFrameOverTheLimit_endsTheSession_asAPlaintextOneWould() async {
        var pair = CurvePair(fixture)
        pair.shuttle()
        pair.server.feed(
            RawCurve.message(
                [UInt8](repeating: 1, count: 1001), nonce: 3, fromClient: true, to: fixture.serverShort, from: fixture.clientShortSecret),
            to: &pair.serverDelegate)
        #expect(pair.server.failure?.kind == .oversizedFrame)
        #expect(pair.serverDelegate.messages.isEmpty)
    }

    @Test func test_aBoxedMessageOfTooManyFrames_isDropped_andTheNextArrives() async {
        var pair = CurvePair(fixture)
        pair.shuttle()
        pair.client.append((0..<6).map { Frame([UInt8($0)]) })
        pair.client.append([Frame("next")])
        pair.shuttle()
        #expect(pair.serverDelegate.dropped.map(\.kind) == [.tooManyFrames])
        #expect(pair.serverDelegate.messages == [["peer", "next"]])
    }

    /// Between our own ends a message of several frames is one box: fewer
    /// boxes, the same message, within the same limits.
    @Test func test_betweenOurEnds_aMessageOfSeveralFrames_travelsInOneBox_withinTheSameLimits() async {
        var pair = CurvePair(fixture)
        pair.shuttle()
        #expect(pair.client.wholeMessages && pair.server.wholeMessages)
        pair.server.output.removeFirst(pair.server.output.count)
        pair.server.append(["peer", "", "MDPW01", Frame([2]), Frame([UInt8](repeating: 1, count: 300))], from: 1)
        let oneBox = 9 + CurveWire.messageOverhead + (2 + 0) + (2 + 6) + (2 + 1) + (9 + 300)
        #expect(pair.server.written.count == oneBox, "one MESSAGE of the four frames")
        pair.shuttle()
        #expect(pair.clientDelegate.messages == [["", "MDPW01", Frame([2]), Frame([UInt8](repeating: 1, count: 300))]])
        pair.client.append((0..<6).map { Frame([UInt8($0)]) })
        pair.client.append([Frame("next"), Frame("one")])
        pair.shuttle()
        #expect(pair.serverDelegate.dropped.map(\.kind) == [.tooManyFrames])
        #expect(pair.serverDelegate.messages == [["peer", "next", "one"]])
        // 1,520 bytes in all, over the limit of 1,500, in a box the decoder takes (1,572 bytes).
        pair.client.append([Frame([UInt8](repeating: 1, count: 760)), Frame([UInt8](repeating: 2, count: 760))])
        pair.shuttle()
        #expect(pair.server.failure?.kind == .oversizedMessage)
        #expect(pair.serverDelegate.messages.count == 1)
        // A box larger than any message within the limits costs the connection at its header.
        var other = CurvePair(fixture)
        other.shuttle()
        other.client.append((1...3).map { Frame([UInt8](repeating: $0, count: 600)) })
        other.shuttle()
        #expect(
            other.server.failure?.detail.contains("a MESSAGE of 1860 bytes is over the limit of 1578") == true,
            "\(String(describing: other.server.failure))")
        #expect(other.serverDelegate.messages.isEmpty)
    }
}
