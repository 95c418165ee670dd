#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Whether something listens on an ipc:// endpoint's socket file. libzmq
/// binds an ipc path by replacing whatever file is there, so a second
/// gateway would silently take a live one's endpoint (and delete it when it
/// exits); a file nobody listens on is only a dead process's leftover.
public enum LiveEndpoint {
    /// The ipc:// endpoints among `endpoints` that a running process serves.
    public static func served(_ endpoints: [String]) -> [String] {
        endpoints.filter { endpoint in
            guard endpoint.hasPrefix("ipc://"), !endpoint.hasPrefix("ipc://@") else { return false }
            return accepts(path: String(endpoint.dropFirst("ipc://".count)))
        }
    }

    private static func accepts(path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        return connected == 0
    }
}
