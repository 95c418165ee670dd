#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Which of a process's connections use CURVE (encryption and
/// authentication), and with which keys. It belongs to the `Context`, so
/// every socket made from it follows one rule, set in one place: `bind`
/// makes a CURVE server of the endpoints it covers, `connect` a CURVE client.
///
/// CURVE covers tcp:// endpoints, and ipc:// ones too when `curveOnIPC` is
/// set (an ipc:// socket is otherwise guarded by its 0700 directory).
/// inproc:// never leaves the process and is never covered.
public struct Security: Sendable, Equatable {
    /// This process's key pair; nil: plaintext everywhere.
    public var keys: Curve.KeyPair?
    /// The public key of the server this process connects to.
    public var serverKey: String?
    public var curveOnIPC: Bool

    public static let none = Security()

    public init(keys: Curve.KeyPair? = nil, serverKey: String? = nil, curveOnIPC: Bool = false) {
        self.keys = keys
        self.serverKey = serverKey
        self.curveOnIPC = curveOnIPC
    }

    /// Whether a connection over `endpoint` must be encrypted, by the rule
    /// above: tcp:// always, ipc:// when asked, inproc:// never. Holds
    /// whether or not keys are known (a caller checks that keys exist for it).
    public static func needsCurve(_ endpoint: String, curveOnIPC: Bool) -> Bool {
        endpoint.hasPrefix("tcp://") || (curveOnIPC && endpoint.hasPrefix("ipc://"))
    }

    /// Whether this process uses CURVE on `endpoint`.
    public func usesCurve(_ endpoint: String) -> Bool {
        keys != nil && Self.needsCurve(endpoint, curveOnIPC: curveOnIPC)
    }

    /// Sets the socket's mechanism before it binds `endpoint`. libzmq copies
    /// the options into each listener at bind time, so one socket may serve
    /// ipc:// in plaintext and tcp:// with CURVE.
    func prepare(_ socket: Socket, toBind endpoint: String) throws {
        guard let keys else { return }
        if usesCurve(endpoint) {
            try socket.set(.curveServer, true)
            try socket.set(.curveSecretKey, keys.secretKey)
        } else {
            try socket.set(.curveServer, false)
        }
    }

    /// Sets the socket's keys before it connects to `endpoint`.
    func prepare(_ socket: Socket, toConnect endpoint: String) throws {
        guard let keys, usesCurve(endpoint) else { return }
        guard let serverKey else {
            throw ZMQError(code: EINVAL, operation: "connect \(endpoint) with CURVE: the server's public key is not known")
        }
        try socket.set(.curveServerKey, serverKey)
        try socket.set(.curvePublicKey, keys.publicKey)
        try socket.set(.curveSecretKey, keys.secretKey)
    }
}
