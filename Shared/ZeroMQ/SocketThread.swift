import Foundation
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Starts a thread that owns a socket, named so `top -H` and `ps -L` show
/// what it is. (Glibc's pthread_setname_np is not visible to Swift, so the
/// name is written where Linux keeps it; at most 15 characters are kept.)
public func startSocketThread(named name: String, _ body: @escaping @Sendable () -> Void) {
    let thread = Thread {
        let fd = open("/proc/thread-self/comm", O_WRONLY)
        if fd >= 0 {
            _ = String(name.prefix(15)).withCString { write(fd, $0, strlen($0)) }
            close(fd)
        }
        body()
    }
    thread.start()
}
