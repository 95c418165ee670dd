#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Wakes a thread blocked in `Poller.poll` from any other thread: a
/// non-blocking pipe whose read end the poller watches next to its sockets.
/// Lets other threads hand work to a socket's owning thread without
/// touching the socket.
public final class Waker: Sendable {
    /// The read end, for `Poller.addReadable(fileDescriptor:)`.
    public let fileDescriptor: Int32
    private let writeEnd: Int32

    public init() {
        var ends: [Int32] = [-1, -1]
        let rc = pipe(&ends)
        precondition(rc == 0, "pipe failed: errno \(errno)")
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        fileDescriptor = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(fileDescriptor)
        close(writeEnd)
    }

    /// A full pipe already means "wake up", so a failed write loses nothing.
    public func wake() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Clears pending wake-ups; call after the poller reported the fd readable.
    public func drain() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while read(fileDescriptor, &buffer, buffer.count) > 0 {}
    }
}
