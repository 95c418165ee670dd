import Synchronization

/// Decides who may connect to this context's CURVE servers: a ZAP (RFC 27)
/// handler on `inproc://zeromq.zap.01`, which libzmq asks about every CURVE
/// handshake before it completes; our own ZMTP's CURVE servers ask its
/// `decide` directly (`Context.admission`). A peer it refuses is never served; libzmq
/// tells the peer so (ZMTP ERROR), and the peer sees an authentication
/// failure (`HandshakeEvent.refused`).
///
/// Thread rules: the handler's socket lives on a thread of its own;
/// `start` binds it before returning, so no handshake can slip past
/// unasked. `stop` may be called from any thread.
public final class ZAPHandler: Sendable {
    public struct Request: Sendable, Equatable {
        /// The peer's IP address (empty for ipc://).
        public let address: String
        /// "CURVE", "NULL" or "PLAIN".
        public let mechanism: String
        /// The peer's public key (CURVE only), as Z85 text.
        public let publicKey: String?

        public init(address: String, mechanism: String, publicKey: String?) {
            self.address = address
            self.mechanism = mechanism
            self.publicKey = publicKey
        }
    }

    public enum Decision: Sendable, Equatable {
        case allow
        case deny(reason: String)
    }

    public static let endpoint = "inproc://zeromq.zap.01"
    private let waker = Waker()
    private let stopping = Atomic<Bool>(false)
    private let finished = Completion<Void>()

    private init() {}

    /// Binds the handler in `context` and answers each request with `decide`.
    public static func start(context: Context, decide: @escaping @Sendable (Request) -> Decision) throws -> ZAPHandler {
        let socket = try Socket(context, .reply)
        try socket.bind(endpoint)
        // Our own ZMTP's CURVE servers ask the same question directly.
        context.admission.withLock { $0 = decide }
        let handler = ZAPHandler()
        // libzmq sockets may move to another thread across a full memory
        // barrier, which starting a thread is.
        let moved = UncheckedBox(socket)
        startSocketThread(named: "zap-handler") { handler.serve(moved.value, decide: decide) }
        return handler
    }

    public func stop() {
        stopping.store(true, ordering: .releasing)
        waker.wake()
    }

    public func waitUntilStopped() async { await finished.value }

    @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
    private func serve(_ socket: Socket, decide: @Sendable (Request) -> Decision) {
        defer { socket.close(); finished.complete(()) }
        var poller = Poller()
        let socketIndex = poller.addReadable(socket)
        poller.addReadable(fileDescriptor: waker.fileDescriptor)
        while !stopping.load(ordering: .acquiring) {
            do {
                try poller.poll(timeout: nil)
                guard poller.isReadable(socketIndex), let frames = try socket.receive(wait: false) else { continue }
                try socket.send(Self.reply(to: frames, decide: decide))
            } catch {
                return  // ETERM: the context is shutting down
            }
        }
    }

    /// RFC 27: version, request id, domain, address, identity, mechanism,
    /// credentials; answered with version, request id, status, text, user id,
    /// metadata. Anything malformed is refused.
    static func reply(to frames: [Frame], decide: (Request) -> Decision) -> [Frame] {
        let requestID = frames.count > 1 ? frames[1] : Frame()
        func answer(_ status: String, _ text: String) -> [Frame] {
            [Frame("1.0"), requestID, Frame(status), Frame(text), Frame(), Frame()]
        }
        guard frames.count >= 6, frames[0].string == "1.0", let mechanism = frames[5].string else {
            return answer("400", "malformed ZAP request")
        }
        let key = mechanism == "CURVE" && frames.count >= 7 ? Curve.encode(frames[6].bytes) : nil
        let request = Request(address: frames[3].string ?? "", mechanism: mechanism, publicKey: key)
        switch decide(request) {
        case .allow: return answer("200", "OK")
        case .deny(let reason): return answer("400", reason)
        }
    }
}
