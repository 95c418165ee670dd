import CZeroMQ
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Waits on several sockets (and plain file descriptors) at once: `zmq_poll`.
///
/// Thread rules: like the sockets it holds, a poller belongs to one thread.
public struct Poller {
    private var items: [zmq_pollitem_t] = []
    private var sockets: [Socket?] = []

    public init() {}

    /// Forgets every item, keeping the room they took: a loop that polls
    /// again and again adds its items anew to one poller, not a new one
    /// (two arrays allocated and grown) at every wait.
    public mutating func removeAll() {
        items.removeAll(keepingCapacity: true)
        sockets.removeAll(keepingCapacity: true)
    }

    /// Watches a socket for incoming messages; returns its index.
    @discardableResult
    public mutating func addReadable(_ socket: Socket) -> Int {
        items.append(zmq_pollitem_t(socket: socket.handle, fd: -1, events: Int16(ZMQ_POLLIN), revents: 0))
        sockets.append(socket)
        return items.count - 1
    }

    /// Watches a file descriptor (a pipe or eventfd used as a wake-up) for input.
    @discardableResult
    public mutating func addReadable(fileDescriptor: Int32) -> Int {
        add(fileDescriptor: fileDescriptor, events: Int16(POLLIN))
    }

    /// Watches a file descriptor for poll(2)'s `events` (POLLIN, POLLOUT);
    /// returns its index, for `revents`.
    @discardableResult
    public mutating func add(fileDescriptor: Int32, events: Int16) -> Int {
        var asked: Int32 = 0
        if events & Int16(POLLIN) != 0 { asked |= ZMQ_POLLIN }
        if events & Int16(POLLOUT) != 0 { asked |= ZMQ_POLLOUT }
        items.append(zmq_pollitem_t(socket: nil, fd: fileDescriptor, events: Int16(asked), revents: 0))
        sockets.append(nil)
        return items.count - 1
    }

    /// What the last poll found for a file descriptor's item, in poll(2)'s
    /// terms: POLLIN, POLLOUT, and POLLERR for an error or a hang-up
    /// (`zmq_poll` reports both as ZMQ_POLLERR).
    public func revents(_ index: Int) -> Int16 {
        let found = Int32(items[index].revents)
        var revents: Int16 = 0
        if found & ZMQ_POLLIN != 0 { revents |= Int16(POLLIN) }
        if found & ZMQ_POLLOUT != 0 { revents |= Int16(POLLOUT) }
        if found & ZMQ_POLLERR != 0 { revents |= Int16(POLLERR) }
        return revents
    }

    /// Watches a dealer of our own ZMTP for what it needs now (it connects
    /// again here when due): its index while it has a connection, and when
    /// to look again regardless. After the poll, `deliver` hands it what
    /// was found.
    public mutating func add(_ dealer: StreamDealer) -> (index: Int?, deadline: ContinuousClock.Instant?) {
        let (descriptor, events, deadline) = dealer.readiness()
        return (descriptor >= 0 ? add(fileDescriptor: descriptor, events: events) : nil, deadline)
    }

    /// Hands `dealer` what the last poll found for it (`add(_:)`'s index).
    public func deliver(to dealer: StreamDealer, at index: Int?) {
        if let index { dealer.handle(revents: revents(index)) }
    }

    /// Blocks until something is readable or `timeout` passes (nil: no limit).
    /// Returns how many items are ready.
    @discardableResult
    @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
    public mutating func poll(timeout: Duration?) throws -> Int {
        try poll(milliseconds: timeout.map(Self.milliseconds(rounding:)) ?? -1)
    }

    /// Looks without waiting: how many items are ready now. Safe in async
    /// code, where `poll(timeout:)` is not.
    @discardableResult
    public mutating func pollNow() throws -> Int { try poll(milliseconds: 0) }

    @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
    private mutating func poll(milliseconds: Int) throws -> Int {
        for index in items.indices { items[index].revents = 0 }
        let count = Int32(items.count)
        let rc = items.withUnsafeMutableBufferPointer { buffer in
            retryingOnInterrupt { zmq_poll(buffer.baseAddress, count, milliseconds) }
        }
        if rc == -1 { throw ZMQError.last("poll") }
        return Int(rc)
    }

    /// Blocks until `socket` may have messages, `fileDescriptor` is readable,
    /// or `timeout` passes; returns whether `fileDescriptor` was readable.
    ///
    /// One poll(2) on the socket's ZMQ_FD, where `zmq_poll` also asks the
    /// socket for its events before and after it blocks (each a system call
    /// when nothing is waiting). ZMQ_FD is edge-triggered: call this only
    /// when the last call on the socket was a `receive(wait: false)` that
    /// found nothing. A send since then may have taken the wake-up of a
    /// message that arrived meanwhile, which would then wait unseen.
    @available(*, noasync, message: "blocks its thread: call it on a thread of its own")
    public static func waitAfterDraining(_ socket: Socket, orFileDescriptor fileDescriptor: Int32, timeout: Duration?) throws -> Bool {
        let socketDescriptor = try socket.get(.fileDescriptor)
        let milliseconds = Int32(timeout.map(Self.milliseconds(rounding:)) ?? -1)
        return try withUnsafeTemporaryAllocation(of: pollfd.self, capacity: 2) { items in
            items[0] = pollfd(fd: socketDescriptor, events: Int16(POLLIN), revents: 0)
            items[1] = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
            while Glibc.poll(items.baseAddress, 2, milliseconds) == -1 {
                guard errno == EINTR else { throw ZMQError.last("poll") }
            }
            return items[1].revents & Int16(POLLIN) != 0
        }
    }

    public func isReadable(_ index: Int) -> Bool {
        items[index].revents & Int16(ZMQ_POLLIN) != 0
    }

    /// Rounds up so a poll never wakes before a deadline it was given.
    public static func milliseconds(rounding duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        if seconds < 0 || (seconds == 0 && attoseconds <= 0) { return 0 }
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int(min(milliseconds, Int64(Int32.max)))
    }
}
