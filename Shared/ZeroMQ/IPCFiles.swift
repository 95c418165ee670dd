#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Removes the socket files of the ipc:// endpoints a socket bound.
///
/// libzmq removes an ipc:// file only when its I/O thread gets round to it,
/// which a process that exits right after may never see. The binder owns
/// these files, so it removes them, and a stopped process leaves none behind.
/// Abstract-namespace endpoints (`ipc://@name`) have no file and are skipped.
public func removeIPCFiles(of endpoints: [String]) {
    for endpoint in endpoints where endpoint.hasPrefix("ipc://") {
        let path = String(endpoint.dropFirst("ipc://".count))
        if !path.hasPrefix("@") { _ = unlink(path) }
    }
}
