/// A CURVE key pair as the handshake uses it, 32 bytes each (`Curve.KeyPair`
/// holds the same keys as Z85 text).
public struct CurveKeys: Sendable, Equatable {
    public let publicKey: [UInt8]
    let secretKey: [UInt8]

    /// The pair a secret key makes.
    init(secret: [UInt8]) {
        secretKey = secret
        publicKey = Sodium.publicKey(secret: secret)
    }

    /// The pair of a Z85 key pair; nil when either key is not Z85 or the
    /// public key is not the secret key's.
    public init?(_ pair: Curve.KeyPair) {
        guard let secret = Curve.decode(pair.secretKey), let claimed = Curve.decode(pair.publicKey) else { return nil }
        self.init(secret: secret)
        guard publicKey == claimed else { return nil }
    }

    /// A fresh pair: a connection's short-term keys.
    static func fresh(_ random: CurveRandom) -> CurveKeys { CurveKeys(secret: random.bytes(Sodium.keySize)) }
}

/// How one end of a connection speaks CURVE: as the server, with its key
/// pair (whom it lets in its owner decides, `ZMTPSessionDelegate.admits`),
/// or as the client, with its own pair and the server's public key.
public enum CurveRole: Sendable {
    case server(CurveKeys)
    case client(CurveKeys, serverKey: [UInt8])
}

/// A CURVE server endpoint of our own ZMTP: its key pair, and whom it
/// lets in (the gateway's allow-list, through the same decisions its ZAP
/// handler makes for libzmq).
public struct CurveServerSetup: Sendable {
    public let keys: CurveKeys
    public let admit: @Sendable (ZAPHandler.Request) -> ZAPHandler.Decision

    public init(keys: CurveKeys, admit: @escaping @Sendable (ZAPHandler.Request) -> ZAPHandler.Decision) {
        self.keys = keys
        self.admit = admit
    }
}

/// RFC 26's fixed bytes: command names, and the prefixes that make each
/// box's nonce its own (a box made for one purpose never opens as another).
enum CurveWire {
    static let hello = "HELLO", welcome = "WELCOME", initiate = "INITIATE", ready = "READY", message = "MESSAGE"
    static let helloNonce = Array("CurveZMQHELLO---".utf8)
    static let welcomeNonce = Array("WELCOME-".utf8)
    static let cookieNonce = Array("COOKIE--".utf8)
    static let initiateNonce = Array("CurveZMQINITIATE".utf8)
    static let vouchNonce = Array("VOUCH---".utf8)
    static let readyNonce = Array("CurveZMQREADY---".utf8)
    static let clientMessageNonce = Array("CurveZMQMESSAGEC".utf8)
    /// The metadata property by which each of our ends says it takes a
    /// whole message in one box (`ZMTP.wholeMessage`); libzmq ignores it.
    static let wholeMessages = "X-Whole-Messages"
    static let serverMessageNonce = Array("CurveZMQMESSAGES".utf8)

    /// HELLO's data: version, padding, C', short nonce, box.
    static let helloSize = 2 + 72 + 32 + 8 + 80
    /// WELCOME's data: long nonce, box of S' and the cookie.
    static let welcomeSize = 16 + 144
    static let cookieSize = 96
    /// INITIATE's data at least: cookie, short nonce, box of C, the vouch's
    /// nonce and box (metadata follows).
    static let initiateMinimum = cookieSize + 8 + Sodium.macSize + 32 + 16 + 80
    /// A MESSAGE's data at least: short nonce, box of the flags byte.
    static let messageMinimum = 8 + Sodium.macSize + 1
    /// What a MESSAGE adds to a frame's bytes: name, nonce, authenticator, flags.
    static let messageOverhead = 8 + 8 + Sodium.macSize + 1

    /// A 24-byte nonce: a prefix, then a short nonce (8 bytes, big-endian)
    /// or the rest of a long one.
    static func nonce(_ prefix: [UInt8], _ rest: [UInt8]) -> [UInt8] { prefix + rest }

    static func bytes(_ value: UInt64) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }

    static func number(_ bytes: UnsafeRawBufferPointer.SubSequence) -> UInt64 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// A command frame's bytes.
    static func command(_ name: String, _ data: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        ZMTPEncoder.appendCommand(to: &output, name: name, data: data)
        return output
    }
}
