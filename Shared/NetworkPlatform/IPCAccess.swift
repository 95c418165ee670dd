import Foundation
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Why an ipc:// endpoint may not answer: its socket file, or a directory
/// on the way to it, belongs to someone this user may not reach (another
/// user's 0700 runtime directory, say). Said as itself, not as "no answer".
enum IPCAccess {
    static func isDenied(_ endpoint: String) -> Bool {
        guard endpoint.hasPrefix("ipc://"), !endpoint.hasPrefix("ipc://@") else { return false }
        let path = String(endpoint.dropFirst("ipc://".count))
        if access(path, R_OK | W_OK) == 0 { return false }
        return errno == EACCES || errno == EPERM
    }
}
