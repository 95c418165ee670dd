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
