/// The client's side of CURVE's handshake (RFC 26): HELLO once the
/// server's greeting is in, INITIATE (with our metadata) for the server's
/// WELCOME, and the server's metadata and the traffic keys from its READY.
/// No I/O: bytes in, bytes out.
struct CurveClient {
    enum Outcome: Equatable {
        case reply([UInt8])
        /// READY opened: the server's metadata.
        case ready(metadata: [UInt8])
        case failure(String)
    }

    private enum Step { case hello, welcome, ready, done }

    let keys: CurveKeys
    let serverKey: [UInt8]
    let random: CurveRandom
    private var step = Step.hello
    private let short: CurveKeys
    /// The key C' and s shares with S (HELLO's box), then with S' (every
    /// box after WELCOME).
    private var shared: [UInt8] = []
    private var nonce: UInt64 = 1
    private(set) var traffic: CurveTraffic?

    init(keys: CurveKeys, serverKey: [UInt8], random: CurveRandom = .system) {
        self.keys = keys
        self.serverKey = serverKey
        self.random = random
        short = CurveKeys.fresh(random)
    }

    /// HELLO: version 1.0, padding as long as WELCOME's box is (so the
    /// server sends no more than it got), C', a short nonce, and a box of
    /// 64 zero bytes from C' to S. Nil when `serverKey` is no usable key.
    mutating func hello() -> [UInt8]? {
        precondition(step == .hello, "HELLO is sent once")
        guard let key = Sodium.precompute(public: serverKey, secret: short.secretKey) else { return nil }
        step = .welcome
        let short = takeNonce()
        let box = Sodium.seal([UInt8](repeating: 0, count: 64), nonce: CurveWire.nonce(CurveWire.helloNonce, short), key: key)
        return CurveWire.command(CurveWire.hello, [1, 0] + [UInt8](repeating: 0, count: 72) + self.short.publicKey + short + box)
    }

    /// WELCOME: opens S' and the cookie, and answers INITIATE carrying them
    /// back, our long-term key, the vouch and `metadata`.
    mutating func welcome(_ data: UnsafeRawBufferPointer, metadata: [UInt8]) -> Outcome {
        guard step == .welcome else { return .failure("it sent WELCOME \(step == .hello ? "before HELLO" : "twice")") }
        guard data.count == CurveWire.welcomeSize else {
            return .failure("a WELCOME of \(data.count) bytes (CURVE's is \(CurveWire.welcomeSize))")
        }
        guard let key = Sodium.precompute(public: serverKey, secret: short.secretKey),
            let plain = Sodium.open(
                UnsafeRawBufferPointer(rebasing: data[16...]), nonce: CurveWire.nonce(CurveWire.welcomeNonce, Array(data[0..<16])), key: key)
        else {
            return .failure("its WELCOME does not open: it is not the server whose key this end was given")
        }
        let serverShort = Array(plain[0..<32])
        let cookie = Array(plain[32..<128])
        guard let shared = Sodium.precompute(public: serverShort, secret: short.secretKey),
            let vouchKey = Sodium.precompute(public: serverShort, secret: keys.secretKey)
        else {
            return .failure("its short-term key is not a usable Curve25519 key")
        }
        self.shared = shared
        let vouchNonce = random.bytes(16)
        let vouch = Sodium.seal(short.publicKey + serverKey, nonce: CurveWire.nonce(CurveWire.vouchNonce, vouchNonce), key: vouchKey)
        let nonce = takeNonce()
        let box = Sodium.seal(
            keys.publicKey + vouchNonce + vouch + metadata, nonce: CurveWire.nonce(CurveWire.initiateNonce, nonce), key: shared)
        step = .ready
        return .reply(CurveWire.command(CurveWire.initiate, cookie + nonce + box))
    }

    /// READY: the server's metadata, and the keys for traffic.
    mutating func ready(_ data: UnsafeRawBufferPointer) -> Outcome {
        guard step == .ready else { return .failure("it sent READY \(step == .done ? "twice" : "before WELCOME")") }
        guard data.count >= 8 + Sodium.macSize else { return .failure("a READY of \(data.count) bytes (at least \(8 + Sodium.macSize))") }
        guard
            let metadata = Sodium.open(
                UnsafeRawBufferPointer(rebasing: data[8...]), nonce: CurveWire.nonce(CurveWire.readyNonce, Array(data[0..<8])), key: shared)
        else {
            return .failure("its READY does not open")
        }
        step = .done
        traffic = CurveTraffic(key: shared, isServer: false, peerNonce: CurveWire.number(data[0..<8]), nextNonce: nonce)
        return .ready(metadata: metadata)
    }

    private mutating func takeNonce() -> [UInt8] {
        defer { nonce += 1 }
        return CurveWire.bytes(nonce)
    }
}
