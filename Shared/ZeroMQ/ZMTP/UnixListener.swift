import CZeroMQ
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// A listening Unix-domain stream socket for an ipc:// endpoint, as libzmq
/// makes one: `ipc://path` replaces a file left at `path` (the caller has
/// checked that no live process serves it), and `ipc://@name` is Linux's
/// abstract namespace. Non-blocking and close-on-exec.
struct UnixListener {
    let descriptor: Int32
    let endpoint: String

    /// The socket address of an ipc:// endpoint; nil when the path is
    /// empty, too long for one, or holds a zero byte.
    private static func address(of endpoint: String) -> (address: sockaddr_un, length: socklen_t, file: String?)? {
        let path = String(endpoint.dropFirst("ipc://".count))
        var bytes = Array(path.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity, !bytes.dropFirst().contains(0) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + (abstract ? 0 : 1))
        return (address, length, abstract ? nil : path)
    }

    private static func streamSocket() -> Int32 {
        socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    }

    /// A connected, non-blocking socket; nil when nothing listens there yet.
    static func connect(to endpoint: String) -> Int32? {
        guard let target = address(of: endpoint) else { return nil }
        var address = target.address
        let descriptor = streamSocket()
        guard descriptor >= 0 else { return nil }
        while true {
            let rc = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, target.length) }
            }
            // A full backlog (EAGAIN) is tried again later, as a refusal is.
            if rc == 0 { return descriptor }
            if errno != EINTR { break }
        }
        _ = Glibc.close(descriptor)
        return nil
    }

    init(endpoint: String) throws {
        let fail = { (code: Int32) in ZMQError(code: code, operation: "bind \(endpoint)") }
        guard let target = Self.address(of: endpoint) else { throw fail(ENAMETOOLONG) }
        var address = target.address
        let descriptor = Self.streamSocket()
        guard descriptor >= 0 else { throw fail(errno) }
        if let file = target.file { _ = unlink(file) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, target.length) }
        }
        guard bound == 0, listen(descriptor, 128) == 0 else {
            let code = errno
            _ = Glibc.close(descriptor)
            throw fail(code)
        }
        self.descriptor = descriptor
        self.endpoint = endpoint
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
            if peer >= 0 { return .connection(peer) }
            switch errno {
            case EINTR, ECONNABORTED, EPROTO: continue
            case EAGAIN, EWOULDBLOCK: return .none
            default: return .exhausted(errno)
            }
        }
    }

    func close() { _ = Glibc.close(descriptor) }
}
