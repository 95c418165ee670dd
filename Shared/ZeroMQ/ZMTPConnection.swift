#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// What a `ZMTPConnection` read: the peer's READY, whole messages, and
/// anything that made it close the connection.
protocol ZMTPReceiver: AnyObject {
    /// The peer's READY metadata; returns why the peer is refused, or nil.
    func ready(_ connection: ZMTPConnection, metadata: UnsafeRawBufferPointer) -> String?
    /// A whole message: the connection's `prefix` (if any), then its frames.
    func message(_ connection: ZMTPConnection, _ frames: [Frame])
    /// Something the peer did wrong, worth a log line: the connection is
    /// closed after it, except for a message of too many frames, which
    /// alone is dropped.
    func report(_ connection: ZMTPConnection, _ problem: PeerProblem)
    /// The connection closed (after `report`, if the peer was at fault).
    func closed(_ connection: ZMTPConnection)
}

/// One ZMTP 3.1 connection over a non-blocking stream socket, NULL
/// mechanism: where its handshake is, the bytes of a frame only half
/// received, the frames of a message not finished, and what waits to be
/// written. Both ends use it: `StreamRouter` for the peers that connect to
/// it, `StreamDealer` for its one connection.
///
/// Thread rules: owned by one thread.
final class ZMTPConnection {
    enum Stage { case greeting, handshake, traffic }

    let descriptor: Int32
    let limits: ZMTP.Limits
    /// The socket types the peer may be.
    let peerTypes: Set<String>
    var stage = Stage.greeting
    /// The first frame of every message delivered, when set: a router sets
    /// the peer's routing id here once its READY is read.
    var prefix: Frame?
    /// Bytes read that do not yet make a whole greeting or frame; reads go
    /// to a buffer shared by a thread's connections first.
    var input = PartialInput()
    /// How many bytes `input` must hold before it can be parsed further.
    var needed = 0
    /// The message being received.
    var incoming = IncomingMessage()
    var output: [UInt8]
    /// What waits for the peer's greeting: our READY, then any messages.
    /// libzmq closes a connection whose READY came before it had sent its
    /// own greeting, so this end sends its greeting alone first.
    var held: [UInt8]
    var written = 0
    var isDirty = false
    var isClosed = false
    /// Its key in its owner's `EventPoll`, and whether that watches it for
    /// room to write.
    var key: UInt64 = 0
    var watchesOutput = false
    let opened = ContinuousClock.now

    /// Queues the greeting; READY (with `identity`, when given) follows
    /// once the peer's greeting is read.
    init(descriptor: Int32, socketType: String, identity: [UInt8]? = nil, peerTypes: Set<String>, limits: ZMTP.Limits) {
        self.descriptor = descriptor
        self.peerTypes = peerTypes
        self.limits = limits
        output = ZMTP.greeting
        held = ZMTP.ready(socketType: socketType, identity: identity)
    }

    deinit { close() }

    var hasOutput: Bool { written < output.count }

    /// Writes what it can without blocking. False when the peer is gone.
    func write() -> Bool {
        while written < output.count {
            let count = output.withUnsafeBytes { bytes in
                send(descriptor, bytes.baseAddress! + written, bytes.count - written, Int32(MSG_NOSIGNAL))
            }
            if count > 0 {
                written += count
                continue
            }
            if count < 0 && errno == EINTR { continue }
            return count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
        }
        // All written: start again at the front, keeping a usual amount of memory.
        if output.capacity > 1 << 18 { output = [] } else { output.removeAll(keepingCapacity: true) }
        written = 0
        return true
    }

    /// Appends the frames of a message from `first` on, as ZMTP frames.
    func append(_ frames: [Frame], from first: Int = 0) {
        if stage == .greeting {
            Self.append(frames, from: first, to: &held)
        } else {
            Self.append(frames, from: first, to: &output)
        }
    }

    private static func append(_ frames: [Frame], from first: Int, to output: inout [UInt8]) {
        let last = frames.count - 1
        for index in first...last {
            frames[index].withUnsafeBytes { body in
                ZMTP.appendHeader(to: &output, size: body.count, flags: index < last ? ZMTP.more : 0)
                output.append(contentsOf: body)
            }
        }
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        _ = Glibc.close(descriptor)
        input.release()
        output = []
        held = []
        incoming = IncomingMessage()
    }
}

/// The message a connection is receiving: `prefix` first, then its frames,
/// and how many went past the limit (counted, not kept). One struct, so
/// that a frame costs the connection one access to it, not six.
struct IncomingMessage {
    private(set) var frames: [Frame] = []
    private var excess = 0

    /// Adds a frame (copied only when within the limit). After the last
    /// one (`more` false), returns how many frames the message had past
    /// `prefix` and whether they were too many; `frames` then holds the
    /// message until `reset()`.
    mutating func add(_ body: UnsafeRawBufferPointer, more: Bool, prefix: Frame?, limits: ZMTP.Limits) -> (count: Int, tooMany: Bool)? {
        if frames.isEmpty, let prefix { frames.append(prefix) }
        let first = prefix == nil ? 0 : 1
        if frames.count - first < limits.maxFrames {
            frames.append(Frame(body, sharing: limits.sharedFrames))
        } else {
            excess += 1
        }
        guard !more else { return nil }
        return (frames.count - first + excess, excess > 0)
    }

    /// Ready for the next message, keeping the room.
    mutating func reset() {
        frames.removeAll(keepingCapacity: true)
        excess = 0
    }
}
