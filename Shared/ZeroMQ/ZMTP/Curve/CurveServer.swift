/// The server's side of CURVE's handshake (RFC 26), fed the data of each
/// command the client sends: HELLO is answered with WELCOME (our
/// short-term key and a cookie), INITIATE is checked (cookie, box, vouch)
/// and gives the client's long-term key and metadata, which the session
/// decides on; `ready` then makes READY and the keys for traffic. No I/O:
/// bytes in, bytes out.
struct CurveServer {
    enum Outcome: Equatable {
        /// A command to send (WELCOME).
        case reply([UInt8])
        /// INITIATE held: the client's long-term key and its metadata.
        case initiated(clientKey: [UInt8], metadata: [UInt8])
        /// A command of the wrong size, order or contents: refused with an
        /// ERROR the client can read.
        case refused(String)
        /// HELLO that does not open: the connection is closed without a
        /// word (RFC 26: nothing is sent to whom cannot show it knows our
        /// key, so the server cannot be used to amplify traffic).
        case dropped(String)
    }

    private enum Step { case hello, initiate, ready, done }

    let keys: CurveKeys
    let random: CurveRandom
    private var step = Step.hello
    /// The client's short-term public key (C'), ours (s', S'), and the key
    /// they share.
    private var clientShort: [UInt8] = []
    private var short: CurveKeys?
    private var shared: [UInt8] = []
    /// Seals the cookie: made for this connection, so a cookie is good for
    /// it alone.
    private var cookieKey: [UInt8] = []
    /// The last short nonce the client used.
    private var peerNonce: UInt64 = 0

    init(keys: CurveKeys, random: CurveRandom = .system) {
        self.keys = keys
        self.random = random
    }

    /// HELLO's data: version 1.0, 72 bytes of padding, C', a short nonce,
    /// and a box of 64 zero bytes from C' to S.
    mutating func hello(_ data: UnsafeRawBufferPointer) -> Outcome {
        guard step == .hello else { return .refused("it sent HELLO twice") }
        guard data.count == CurveWire.helloSize else {
            return .dropped("a HELLO of \(data.count) bytes (CURVE's is \(CurveWire.helloSize))")
        }
        guard data[0] == 1 else { return .dropped("it speaks CurveZMQ \(data[0]).\(data[1]); this end speaks 1.0") }
        let client = Array(data[74..<106])
        let nonce = CurveWire.nonce(CurveWire.helloNonce, Array(data[106..<114]))
        guard let key = Sodium.precompute(public: client, secret: keys.secretKey),
            let signature = Sodium.open(UnsafeRawBufferPointer(rebasing: data[114...]), nonce: nonce, key: key),
            signature.allSatisfy({ $0 == 0 })
        else {
            return .dropped("its HELLO does not open with this server's key: the client was given another server key")
        }
        let short = CurveKeys.fresh(random)
        guard let shared = Sodium.precompute(public: client, secret: short.secretKey) else {
            return .dropped("its short-term key is not a usable Curve25519 key")
        }
        clientShort = client
        self.short = short
        self.shared = shared
        peerNonce = CurveWire.number(data[106..<114])
        cookieKey = random.bytes(Sodium.keySize)
        let cookieNonce = random.bytes(16)
        let cookie =
            cookieNonce + Sodium.secretSeal(client + short.secretKey, nonce: CurveWire.nonce(CurveWire.cookieNonce, cookieNonce), key: cookieKey)
        let welcomeNonce = random.bytes(16)
        let box = Sodium.seal(short.publicKey + cookie, nonce: CurveWire.nonce(CurveWire.welcomeNonce, welcomeNonce), key: key)
        step = .initiate
        return .reply(CurveWire.command(CurveWire.welcome, welcomeNonce + box))
    }

    /// INITIATE's data: the cookie, a short nonce, and a box from C' to S'
    /// of C, the vouch (a box from C to S' of C' and S: the long-term key
    /// holder owns the short-term one) and the metadata.
    mutating func initiate(_ data: UnsafeRawBufferPointer) -> Outcome {
        guard step == .initiate else { return .refused(step == .hello ? "it sent INITIATE before HELLO" : "it sent INITIATE twice") }
        guard data.count >= CurveWire.initiateMinimum else {
            return .refused("an INITIATE of \(data.count) bytes (at least \(CurveWire.initiateMinimum))")
        }
        guard let short else { return .refused("no HELLO") }
        let cookieNonce = CurveWire.nonce(CurveWire.cookieNonce, Array(data[0..<16]))
        guard let cookie = Sodium.secretOpen(UnsafeRawBufferPointer(rebasing: data[16..<96]), nonce: cookieNonce, key: cookieKey),
            cookie == clientShort + short.secretKey
        else {
            return .refused("its INITIATE carries a cookie this server did not give it")
        }
        let nonce = CurveWire.number(data[96..<104])
        guard nonce > peerNonce else { return .refused("its INITIATE's nonce \(nonce) does not follow its HELLO's \(peerNonce)") }
        guard
            let plain = Sodium.open(
                UnsafeRawBufferPointer(rebasing: data[104...]), nonce: CurveWire.nonce(CurveWire.initiateNonce, Array(data[96..<104])), key: shared)
        else {
            return .refused("its INITIATE does not open")
        }
        let client = Array(plain[0..<32])
        let vouchNonce = CurveWire.nonce(CurveWire.vouchNonce, Array(plain[32..<48]))
        guard let vouchKey = Sodium.precompute(public: client, secret: short.secretKey),
            let vouch = plain.withUnsafeBytes({ Sodium.open(UnsafeRawBufferPointer(rebasing: $0[48..<128]), nonce: vouchNonce, key: vouchKey) }),
            vouch == clientShort + keys.publicKey
        else {
            return .refused("its vouch does not open, or does not vouch for its short-term key to this server")
        }
        peerNonce = nonce
        step = .ready
        return .initiated(clientKey: client, metadata: Array(plain[128...]))
    }

    /// READY with our metadata, once the session let the client in; and
    /// the keys for the traffic that follows.
    mutating func ready(metadata: [UInt8]) -> (command: [UInt8], traffic: CurveTraffic) {
        precondition(step == .ready, "READY follows INITIATE")
        step = .done
        var traffic = CurveTraffic(key: shared, isServer: true, peerNonce: peerNonce)
        let nonce = traffic.takeNonce()
        let box = Sodium.seal(metadata, nonce: CurveWire.nonce(CurveWire.readyNonce, CurveWire.bytes(nonce)), key: shared)
        return (CurveWire.command(CurveWire.ready, CurveWire.bytes(nonce) + box), traffic)
    }
}
