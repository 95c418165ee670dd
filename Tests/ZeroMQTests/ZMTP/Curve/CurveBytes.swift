import CSodium
import Synchronization
@testable import ZeroMQ

/// RFC 26's commands built in the test from libsodium's own calls, apart
/// from the code under test: what a correct CURVE peer sends, byte for
/// byte, given its keys and nonces.
enum RawCurve {
    static func publicKey(_ secret: [UInt8]) -> [UInt8] {
        _ = sodium_init()
        var key = [UInt8](repeating: 0, count: 32)
        _ = crypto_scalarmult_base(&key, secret)
        return key
    }

    /// crypto_box: from `secret`'s owner to `public`'s.
    static func box(_ plain: [UInt8], _ prefix: String, _ nonce: [UInt8], to peer: [UInt8], from secret: [UInt8]) -> [UInt8] {
        var box = [UInt8](repeating: 0, count: 16 + plain.count)
        _ = crypto_box_easy(&box, plain, UInt64(plain.count), Array(prefix.utf8) + nonce, peer, secret)
        return box
    }

    static func open(_ box: [UInt8], _ prefix: String, _ nonce: [UInt8], from peer: [UInt8], to secret: [UInt8]) -> [UInt8]? {
        guard box.count >= 16 else { return nil }
        var plain = [UInt8](repeating: 0, count: box.count - 16 + 1)
        let opened = crypto_box_open_easy(&plain, box, UInt64(box.count), Array(prefix.utf8) + nonce, peer, secret)
        plain.removeLast()
        return opened == 0 ? plain : nil
    }

    static func secretBox(_ plain: [UInt8], _ prefix: String, _ nonce: [UInt8], key: [UInt8]) -> [UInt8] {
        var box = [UInt8](repeating: 0, count: 16 + plain.count)
        _ = crypto_secretbox_easy(&box, plain, UInt64(plain.count), Array(prefix.utf8) + nonce, key)
        return box
    }

    static func short(_ value: UInt64) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }

    /// A command frame (flags 0x04), its name length-prefixed.
    static func command(_ name: String, _ data: [UInt8]) -> [UInt8] { ZMTPBytes.command(name, data) }

    static func hello(clientShort: [UInt8], clientShortSecret: [UInt8], server: [UInt8], nonce: UInt64 = 1) -> [UInt8] {
        command(
            "HELLO",
            [1, 0] + [UInt8](repeating: 0, count: 72) + clientShort + short(nonce)
                + box([UInt8](repeating: 0, count: 64), "CurveZMQHELLO---", short(nonce), to: server, from: clientShortSecret))
    }

    static func message(
        _ frame: [UInt8], more: Bool = false, command: Bool = false, nonce: UInt64, fromClient: Bool, to peer: [UInt8], from secret: [UInt8]
    )
        -> [UInt8]
    {
        let flags: UInt8 = (more ? 1 : 0) | (command ? 4 : 0)
        let body =
            [7] + Array("MESSAGE".utf8) + short(nonce)
            + box([flags] + frame, fromClient ? "CurveZMQMESSAGEC" : "CurveZMQMESSAGES", short(nonce), to: peer, from: secret)
        return ZMTPBytes.header(size: body.count) + body
    }
}

extension RawCurve {
    /// A whole message in one box, as our own ends send it to each other:
    /// flags 0x40, then the frames ZMTP-encoded.
    static func wholeMessage(_ frames: [[UInt8]], nonce: UInt64, fromClient: Bool, to peer: [UInt8], from secret: [UInt8]) -> [UInt8] {
        let text = [0x40] + ZMTPBytes.message(frames)
        let body =
            [7] + Array("MESSAGE".utf8) + short(nonce)
            + box(text, fromClient ? "CurveZMQMESSAGEC" : "CurveZMQMESSAGES", short(nonce), to: peer, from: secret)
        return ZMTPBytes.header(size: body.count) + body
    }
}

/// Keys fixed for the tests: made from fixed secrets, so every run sees the
/// same bytes.
struct CurveFixture {
    let server = CurveKeys(secret: (0..<32).map { UInt8($0 + 1) })
    let client = CurveKeys(secret: (0..<32).map { UInt8(200 - $0) })
    /// What the server's generator hands out, in the order it asks: its
    /// short-term secret, the cookie key, the cookie's nonce, WELCOME's.
    let serverShortSecret = [UInt8](repeating: 0x11, count: 32)
    let cookieKey = [UInt8](repeating: 0x22, count: 32)
    let cookieNonce = [UInt8](repeating: 0x33, count: 16)
    let welcomeNonce = [UInt8](repeating: 0x44, count: 16)
    /// The client's: its short-term secret, then the vouch's nonce.
    let clientShortSecret = [UInt8](repeating: 0x55, count: 32)
    let vouchNonce = [UInt8](repeating: 0x66, count: 16)

    var serverRandom: CurveRandom { .script([serverShortSecret, cookieKey, cookieNonce, welcomeNonce]) }
    var clientRandom: CurveRandom { .script([clientShortSecret, vouchNonce]) }
    var serverShort: [UInt8] { RawCurve.publicKey(serverShortSecret) }
    var clientShort: [UInt8] { RawCurve.publicKey(clientShortSecret) }

    static let limits = ZMTP.Limits(maxFrameSize: 1000, maxFrames: 4, maxMessageSize: 1500)

    /// The metadata our own ends send under CURVE: a libzmq peer's, and
    /// that they take whole messages in one box.
    static func ourMetadata(socketType: String, identity: [UInt8]?) -> [UInt8] {
        var metadata = ZMTPEncoder.metadata(socketType: socketType, identity: identity)
        ZMTPEncoder.appendProperty(to: &metadata, name: "X-Whole-Messages", value: Array("1".utf8))
        return metadata
    }

    func serverSession(limits: ZMTP.Limits = Self.limits) -> ZMTPSession {
        ZMTPSession(socketType: "ROUTER", peerTypes: ZMTP.routerPeers, limits: limits, curve: .server(server), random: serverRandom)
    }

    func clientSession(identity: [UInt8]? = nil, limits: ZMTP.Limits = Self.limits, serverKey: [UInt8]? = nil) -> ZMTPSession {
        ZMTPSession(
            socketType: "DEALER", identity: identity, peerTypes: ["ROUTER"], limits: limits,
            curve: .client(client, serverKey: serverKey ?? server.publicKey), random: clientRandom)
    }

    /// The client's greeting and HELLO, as it sends them.
    var clientOpening: [UInt8] {
        ZMTP.greeting(curve: .client(client, serverKey: server.publicKey))
            + RawCurve.hello(clientShort: clientShort, clientShortSecret: clientShortSecret, server: server.publicKey)
    }

    /// The cookie the server gives: its nonce, then C' and s' boxed.
    var cookie: [UInt8] { cookieNonce + RawCurve.secretBox(clientShort + serverShortSecret, "COOKIE--", cookieNonce, key: cookieKey) }

    /// INITIATE as the client sends it, with `metadata`.
    func initiate(metadata: [UInt8], cookie: [UInt8]? = nil, nonce: UInt64 = 2, vouchFor: [UInt8]? = nil, clientKeys: CurveKeys? = nil)
        -> [UInt8]
    {
        let longTerm = clientKeys ?? client
        let vouch = RawCurve.box(vouchFor ?? (clientShort + server.publicKey), "VOUCH---", vouchNonce, to: serverShort, from: longTerm.secretKey)
        let box = RawCurve.box(
            longTerm.publicKey + vouchNonce + vouch + metadata, "CurveZMQINITIATE", RawCurve.short(nonce), to: serverShort,
            from: clientShortSecret)
        return RawCurve.command("INITIATE", (cookie ?? self.cookie) + RawCurve.short(nonce) + box)
    }
}

extension CurveRandom {
    /// Hands out the given chunks in order, each exactly once.
    static func script(_ chunks: [[UInt8]]) -> CurveRandom {
        let left = Mutex(chunks)
        return CurveRandom { buffer in
            let chunk = left.withLock { $0.isEmpty ? [] : $0.removeFirst() }
            precondition(chunk.count == buffer.count, "the script's next chunk is \(chunk.count) bytes; \(buffer.count) were asked for")
            buffer.copyBytes(from: chunk)
        }
    }

    /// Bytes from a fixed seed, as many as asked.
    static func seeded(_ seed: UInt64) -> CurveRandom {
        let state = Mutex(SplitMix64(seed: seed))
        return CurveRandom { buffer in
            state.withLock { random in
                for index in buffer.indices { buffer[index] = UInt8(truncatingIfNeeded: random.next()) }
            }
        }
    }
}

/// Our client's session and our server's, each with a delegate that
/// records what it hands on, talking over no socket.
struct CurvePair {
    var client: ZMTPSession
    var server: ZMTPSession
    var clientDelegate = RecordingDelegate()
    var serverDelegate = RecordingDelegate(prefix: "peer")

    init(_ fixture: CurveFixture, identity: [UInt8]? = nil) {
        client = fixture.clientSession(identity: identity)
        server = fixture.serverSession()
    }

    /// Moves what each side has written to the other until neither writes
    /// more: a handshake, or traffic.
    mutating func shuttle() {
        for _ in 0..<16 {
            let toServer = client.written
            let toClient = server.written
            if toServer.isEmpty && toClient.isEmpty { return }
            client.output.removeFirst(toServer.count)
            server.output.removeFirst(toClient.count)
            server.feed(toServer, to: &serverDelegate)
            client.feed(toClient, to: &clientDelegate)
        }
    }
}
