#if canImport(Glibc)
@preconcurrency import Glibc
#endif

final class ThreadStart: Sendable {
    let name: String
    let body: @Sendable () -> Void

    init(name: String, body: @escaping @Sendable () -> Void) { (self.name, self.body) = (name, body) }

    func run() {
        let fd = open("/proc/thread-self/comm", O_WRONLY)
        if fd >= 0 {
            _ = String(name.prefix(15)).withCString { write(fd, $0, strlen($0)) }
            close(fd)
        }
        body()
    }
}
