import CZeroMQ
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// An epoll(7) set, level-triggered: descriptors stay registered between
/// waits. poll(2) adds and removes a wait-queue entry on every descriptor
/// at every call, and on this kind of virtual machine each of those costs a
/// lock with interrupts masked: with a broker's thirty-odd connections, that
/// was half its system time.
///
/// Thread rules: one thread.
final class EventPoll {
    struct Ready {
        let key: UInt64
        /// Input, or the peer hung up (a read then finds the end).
        let readable: Bool
        let writable: Bool
        /// The connection is gone: reported even while input is not watched.
        let hungUp: Bool
    }

    private let descriptor: Int32
    private var events = [epoll_event](repeating: epoll_event(), count: 256)

    init() throws {
        descriptor = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard descriptor >= 0 else { throw ZMQError(code: errno, operation: "epoll_create1") }
    }

    deinit { _ = close(descriptor) }

    /// Watches `fileDescriptor` for input, and for room to write when
    /// `output`; `key` comes back with its events. Closing the descriptor
    /// removes it.
    func add(_ fileDescriptor: Int32, key: UInt64, output: Bool = false) throws {
        try control(EPOLL_CTL_ADD, fileDescriptor, key: key, input: true, output: output)
    }

    /// What `fileDescriptor` is watched for: with neither, only its hang-up
    /// and errors are reported.
    func change(_ fileDescriptor: Int32, key: UInt64, input: Bool = true, output: Bool) throws {
        try control(EPOLL_CTL_MOD, fileDescriptor, key: key, input: input, output: output)
    }

    private func control(_ operation: Int32, _ fileDescriptor: Int32, key: UInt64, input: Bool, output: Bool) throws {
        var event = epoll_event()
        event.events = (input ? EPOLLIN.rawValue : 0) | (output ? EPOLLOUT.rawValue : 0)
        event.data.u64 = key
        guard epoll_ctl(descriptor, operation, fileDescriptor, &event) == 0 else {
            throw ZMQError(code: errno, operation: "epoll_ctl on descriptor \(fileDescriptor)")
        }
    }

    /// Waits up to `timeout` (zero: only looks) and calls `body` for each
    /// descriptor that is ready.
    @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
    func wait(timeout: Duration, _ body: (Ready) -> Void) throws {
        let milliseconds = Int32(Poller.milliseconds(rounding: timeout))
        var count: Int32
        repeat {
            count = epoll_wait(descriptor, &events, Int32(events.count), milliseconds)
        } while count == -1 && errno == EINTR
        guard count >= 0 else { throw ZMQError(code: errno, operation: "epoll_wait") }
        let gone = EPOLLHUP.rawValue | EPOLLERR.rawValue
        let input = EPOLLIN.rawValue | gone | EPOLLRDHUP.rawValue
        for index in 0..<Int(count) {
            let event = events[index]
            body(
                Ready(
                    key: event.data.u64, readable: event.events & input != 0, writable: event.events & EPOLLOUT.rawValue != 0,
                    hungUp: event.events & gone != 0))
        }
    }
}
