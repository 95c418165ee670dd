import CZeroMQ
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// A listening stream socket for an endpoint our own ZMTP serves
/// (`StreamAddress`), as libzmq makes one. `ipc://path` replaces a file
/// left at `path` (the caller has checked that no live process serves it),
/// and `ipc://@name` is Linux's abstract namespace. `tcp://` reuses the
/// address (a gateway restarted at once binds its port again), and its
/// connections are set up by `TCPOptions`. Non-blocking and close-on-exec.
struct StreamListener {
    let descriptor: Int32
    /// The endpoint as bound: a tcp:// port of `*` as the kernel chose it.
    let endpoint: String
    let family: StreamAddress.Family

    private static func streamSocket(_ domain: Int32) -> Int32 {
        socket(domain, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    }

    /// A non-blocking socket connecting to `endpoint`; nil when nothing
    /// listens there yet (ipc://) or the endpoint is not one of ours. A
    /// tcp:// connection may still be under way: a write waits for it, and
    /// a refusal shows as the first write or read failing.
    static func connect(to endpoint: String) -> Int32? {
        guard let target = StreamAddress(endpoint, forBinding: false) else { return nil }
        let descriptor = streamSocket(target.domain)
        guard descriptor >= 0 else { return nil }
        if target.family == .tcp { TCPOptions.apply(to: descriptor) }
        while true {
            let rc = target.withSockaddr { Glibc.connect(descriptor, $0, $1) }
            // A full backlog (EAGAIN) is tried again later, as a refusal is.
            if rc == 0 || (rc == -1 && errno == EINPROGRESS && target.family == .tcp) { return descriptor }
            if errno != EINTR { break }
        }
        _ = Glibc.close(descriptor)
        return nil
    }

    init(endpoint: String) throws {
        let fail = { (code: Int32) in ZMQError(code: code, operation: "bind \(endpoint)") }
        guard let target = StreamAddress(endpoint, forBinding: true) else {
            throw fail(endpoint.hasPrefix("ipc://") ? ENAMETOOLONG : EINVAL)
        }
        let descriptor = Self.streamSocket(target.domain)
        guard descriptor >= 0 else { throw fail(errno) }
        if let file = target.file { _ = unlink(file) }
        var one: Int32 = 1
        if target.family == .tcp { _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size)) }
        let bound = target.withSockaddr { bind(descriptor, $0, $1) }
        guard bound == 0, listen(descriptor, 128) == 0 else {
            let code = errno
            _ = Glibc.close(descriptor)
            throw fail(code)
        }
        self.descriptor = descriptor
        self.family = target.family
        self.endpoint = target.family == .tcp ? StreamAddress.boundEndpoint(of: descriptor) ?? endpoint : endpoint
    }

    enum Accepted {
        case connection(Int32)
        /// No connection waits.
        case none
        /// One waits, but there was no descriptor or memory for it (errno).
        case exhausted(Int32)
    }

    /// The next waiting connection, non-blocking. Errors that concern only
    /// that connection (it went away) are skipped.
    func accept() -> Accepted {
        while true {
            // Non-blocking and close-on-exec as it is made: no window in
            // which a child could inherit it, and no two fcntl calls after.
            let peer = czmq_accept_nonblocking(descriptor)
            if peer >= 0 {
                if family == .tcp { TCPOptions.apply(to: peer) }
                return .connection(peer)
            }
            switch errno {
            case EINTR, ECONNABORTED, EPROTO: continue
            case EAGAIN, EWOULDBLOCK: return .none
            default: return .exhausted(errno)
            }
        }
    }

    func close() { _ = Glibc.close(descriptor) }
}
