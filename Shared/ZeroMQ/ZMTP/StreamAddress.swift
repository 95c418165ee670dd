#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// The socket address of an endpoint our own ZMTP serves: a Unix-domain
/// path (ipc://) or a numeric TCP address (tcp://). Anything else (host
/// names, interface names, inproc://, the ipc://* wildcard) is libzmq's.
///
/// tcp:// takes what libzmq takes for these: `tcp://127.0.0.1:5555`,
/// `tcp://[::1]:5555`, `localhost` (127.0.0.1), and, to bind, `*` for every
/// IPv4 interface and `*` for a port the kernel picks.
struct StreamAddress {
    enum Family { case unix, tcp }

    let family: Family
    private var storage = sockaddr_storage()
    let length: socklen_t
    /// An ipc:// endpoint's socket file (nil for the abstract namespace).
    let file: String?

    /// The address of `endpoint`, nil when it is not one of ours. A port
    /// or host of `*` is taken only when `forBinding`.
    init?(_ endpoint: String, forBinding: Bool) {
        if endpoint.hasPrefix("ipc://") {
            guard let unix = Self.unix(String(endpoint.dropFirst("ipc://".count))) else { return nil }
            (storage, length, file) = unix
            family = .unix
        } else if endpoint.hasPrefix("tcp://") {
            guard let tcp = Self.tcp(endpoint.dropFirst("tcp://".count), forBinding: forBinding) else { return nil }
            (storage, length) = tcp
            file = nil
            family = .tcp
        } else {
            return nil
        }
    }

    var domain: Int32 { Int32(storage.ss_family) }

    func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        withUnsafePointer(to: storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) } }
    }

    private static func unix(_ path: String) -> (sockaddr_storage, socklen_t, String?)? {
        var bytes = Array(path.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path != "*", !bytes.isEmpty, bytes.count < capacity, !bytes.dropFirst().contains(0) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + (abstract ? 0 : 1))
        return (stored(address), length, abstract ? nil : path)
    }

    private static func tcp(_ rest: Substring, forBinding: Bool) -> (sockaddr_storage, socklen_t)? {
        guard let colon = rest.lastIndex(of: ":") else { return nil }
        var host = String(rest[..<colon])
        let portText = rest[rest.index(after: colon)...]
        let port: UInt16
        if portText == "*" {
            guard forBinding else { return nil }
            port = 0
        } else {
            guard portText.allSatisfy({ $0.isASCII && $0.isNumber }), let number = UInt16(portText), number > 0 else { return nil }
            port = number
        }
        if host == "*" {
            guard forBinding else { return nil }
            host = "0.0.0.0"
        } else if host == "localhost" {
            host = "127.0.0.1"
        }
        if host.hasPrefix("["), host.hasSuffix("]") {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            guard inet_pton(AF_INET6, String(host.dropFirst().dropLast()), &address.sin6_addr) == 1 else { return nil }
            return (stored(address), socklen_t(MemoryLayout<sockaddr_in6>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return nil }
        return (stored(address), socklen_t(MemoryLayout<sockaddr_in>.size))
    }

    private static func stored<Address>(_ address: Address) -> sockaddr_storage {
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { target in
            withUnsafeBytes(of: address) { target.copyMemory(from: $0) }
        }
        return storage
    }

    /// The tcp:// endpoint a bound descriptor listens on, its port as the
    /// kernel chose it: what libzmq's ZMQ_LAST_ENDPOINT reports.
    static func boundEndpoint(of descriptor: Int32) -> String? {
        guard let (host, port, family) = address(of: descriptor, peer: false) else { return nil }
        return family == AF_INET6 ? "tcp://[\(host)]:\(port)" : "tcp://\(host):\(port)"
    }

    /// The IP address of a connection's peer (what a ZAP request names);
    /// nil over ipc://.
    static func peerAddress(of descriptor: Int32) -> String? {
        address(of: descriptor, peer: true)?.host
    }

    private static func address(of descriptor: Int32, peer: Bool) -> (host: String, port: UInt16, family: Int32)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let got = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                peer ? getpeername(descriptor, $0, &length) : getsockname(descriptor, $0, &length)
            }
        }
        guard got == 0 else { return nil }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        return withUnsafeBytes(of: storage) { raw in
            switch Int32(storage.ss_family) {
            case AF_INET:
                var address = raw.load(as: sockaddr_in.self)
                guard inet_ntop(AF_INET, &address.sin_addr, &text, socklen_t(text.count)) != nil else { return nil }
                return (host(text), UInt16(bigEndian: address.sin_port), AF_INET)
            case AF_INET6:
                var address = raw.load(as: sockaddr_in6.self)
                guard inet_ntop(AF_INET6, &address.sin6_addr, &text, socklen_t(text.count)) != nil else { return nil }
                return (host(text), UInt16(bigEndian: address.sin6_port), AF_INET6)
            default:
                return nil
            }
        }
    }

    /// The text inet_ntop wrote, up to its terminating zero.
    private static func host(_ text: [CChar]) -> String {
        String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
