import CZeroMQ
import Synchronization
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// A libzmq context: owns the I/O threads and every socket made from it.
///
/// Thread rules: libzmq documents contexts as thread-safe, so a `Context` may be
/// shared freely. `shutdown()` may be called from any thread: every blocking
/// call on its sockets then fails with ETERM (`ZMQError.isTerminated`), which
/// the loops in this package treat as a clean stop. The context is terminated
/// when the last reference goes away; sockets keep their context alive, so
/// termination never waits on a socket that is still open.
public final class Context: @unchecked Sendable {
    let handle: UnsafeMutableRawPointer
    /// The CURVE rule every socket of this context follows on bind and connect.
    public let security: Security
    /// Whether endpoints our own ZMTP can serve use it (the default); false
    /// puts every endpoint on libzmq (`POSTS_ZMTP=libzmq`).
    public let ownZMTP: Bool
    /// Whom our own ZMTP's CURVE servers let in: what the ZAP handler
    /// decides, once one is started (`ZAPHandler.start`); until then every
    /// key, as libzmq does without a handler.
    let admission = Mutex<(@Sendable (ZAPHandler.Request) -> ZAPHandler.Decision)?>(nil)

    public init(ioThreads: Int32 = 1, security: Security = .none, ownZMTP: Bool = true) throws {
        guard let handle = zmq_ctx_new() else { throw ZMQError.last("zmq_ctx_new") }
        if zmq_ctx_set(handle, ZMQ_IO_THREADS, ioThreads) != 0 {
            let error = ZMQError.last("set io threads \(ioThreads)")
            zmq_ctx_term(handle)
            throw error
        }
        self.handle = handle
        self.security = security
        self.ownZMTP = ownZMTP
    }

    /// Whether a connection over `endpoint` speaks our own ZMTP
    /// (`StreamRouter` to bind it, `StreamDealer` to connect to it) rather
    /// than libzmq's: ipc:// and numeric tcp:// do, in plaintext or with
    /// CURVE, unless `ownZMTP` is off. Host names, inproc:// and ipc://*
    /// are libzmq's, and so is a wildcard (`*`) to connect to, which libzmq
    /// refuses as it is asked.
    public func speaksZMTPItself(_ endpoint: String, binding: Bool) -> Bool {
        ownZMTP && (binding ? StreamRouter.serves(endpoint) : StreamDealer.reaches(endpoint))
    }

    /// Throws as libzmq's connect does for an endpoint it would refuse, so
    /// a typo fails at once, on the caller's thread. An endpoint our own
    /// ZMTP reaches was parsed to say so and is not connected to: a check
    /// that connected would open, and drop, a connection to the peer.
    public func checkConnectable(_ endpoints: [String], as type: SocketType) throws {
        let others = endpoints.filter { !speaksZMTPItself($0, binding: false) }
        guard !others.isEmpty else { return }
        let check = try Socket(self, type)
        for endpoint in others { try check.connect(endpoint) }
    }

    /// How our own ZMTP serves `endpoint` by the security rule: nil for
    /// plaintext, else this process's keys, and the ZAP handler's
    /// decisions on who may connect.
    public func curveServer(binding endpoint: String) throws -> CurveServerSetup? {
        guard let pair = security.keys, security.usesCurve(endpoint) else { return nil }
        guard let keys = CurveKeys(pair) else {
            throw ZMQError(code: EINVAL, operation: "bind \(endpoint) with CURVE: this process's key pair is not a Z85 pair that belongs together")
        }
        return CurveServerSetup(keys: keys) { [self] request in admission.withLock { $0 }?(request) ?? .allow }
    }

    /// How our own ZMTP connects to `endpoint` by the security rule: nil
    /// for plaintext, else as a CURVE client with this process's keys and
    /// the server's public key. Throws when that key is not known.
    public func curveClient(connecting endpoint: String) throws -> CurveRole? {
        guard let pair = security.keys, security.usesCurve(endpoint) else { return nil }
        guard let serverText = security.serverKey else {
            throw ZMQError(code: EINVAL, operation: "connect \(endpoint) with CURVE: the server's public key is not known")
        }
        guard let keys = CurveKeys(pair), let serverKey = Curve.decode(serverText) else {
            throw ZMQError(code: EINVAL, operation: "connect \(endpoint) with CURVE: a key is not 40 characters of Z85")
        }
        return .client(keys, serverKey: serverKey)
    }

    /// Wakes every blocked call on this context's sockets with ETERM.
    public func shutdown() {
        _ = zmq_ctx_shutdown(handle)
    }

    deinit {
        _ = retryingOnInterrupt { zmq_ctx_term(handle) }
    }

    /// The libzmq version this process runs against, e.g. (4, 3, 4).
    public static var version: (major: Int32, minor: Int32, patch: Int32) {
        var major: Int32 = 0, minor: Int32 = 0, patch: Int32 = 0
        zmq_version(&major, &minor, &patch)
        return (major, minor, patch)
    }

    /// Whether libzmq was built with a capability, such as "curve" or "ipc".
    public static func has(_ capability: String) -> Bool {
        zmq_has(capability) != 0
    }
}
