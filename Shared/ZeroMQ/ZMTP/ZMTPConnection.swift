#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// One ZMTP connection over a non-blocking stream socket: the I/O alone.
/// It reads into its session (`ZMTPSession`, which decides everything) and
/// writes what the session queued. Both ends use it: `StreamRouter` for
/// the peers that connect to it, `StreamDealer` for its one connection.
///
/// Thread rules: owned by one thread.
final class ZMTPConnection {
    let descriptor: Int32
    var session: ZMTPSession
    /// The first frame of its messages, as the owner's receiver set it at
    /// READY (a router's routing id for the peer).
    var prefix: Frame?
    var isDirty = false
    var isClosed = false
    /// Its key in its owner's `EventPoll`, and the listener it came through.
    var key: UInt64 = 0
    var listener = 0
    /// What its owner's poll watches it for: input unless it is held back,
    /// room to write while output waits.
    var watchesInput = true
    var watchesOutput = false
    /// Not read while more than `Limits.maxOutput` bytes wait for it, until
    /// half of them are written.
    var isHeldBack = false
    /// Since when part of a message has waited for the rest (time held
    /// back not counted).
    var stalledSince: UInt64?
    /// Messages read whole so far (wrapping): a read that completed one
    /// starts the clock of the next.
    var messagesIn: UInt = 0
    /// Messages read but not yet taken when it was held back: taken first
    /// once it is let go (at most one read's worth).
    var deferred: [[Frame]] = []
    let opened = Ticks.now()
    /// When the peer last sent anything (`Ticks`; 0: never): a
    /// heartbeat's answer. Whether a write got bytes out: the connection
    /// was made (a tcp:// connect finishes after it returned).
    var lastInput: UInt64 = 0
    var hasWritten = false
    /// Where its place is given back when it closes.
    var budget: ConnectionBudget?
    /// Why the last write failed (an errno), and whether the peer closed
    /// its end while its bytes were still to be read: then nothing more is
    /// written, and it is read only until its socket is empty.
    var writeError: Int32 = 0
    var isReadOnly = false

    init(
        descriptor: Int32, socketType: String, identity: [UInt8]? = nil, peerTypes: Set<String>, limits: ZMTP.Limits,
        subscriptionCommands: Bool = false, curve: CurveRole? = nil
    ) {
        self.descriptor = descriptor
        session = ZMTPSession(
            socketType: socketType, identity: identity, peerTypes: peerTypes, limits: limits,
            subscriptionCommands: subscriptionCommands, curve: curve)
    }

    deinit { close() }

    var hasOutput: Bool { !session.output.isEmpty }

    /// Whether the peer's bytes wait in the socket, not read yet.
    var hasUnreadInput: Bool {
        var count: Int32 = 0
        return ioctl(descriptor, UInt(FIONREAD), &count) == 0 && count > 0
    }

    /// Whether `updateHoldBack` may change anything: cheap enough to ask
    /// after every message queued.
    var mayChangeHoldBack: Bool { isHeldBack || session.queued > session.limits.maxOutput }

    /// Appends the frames of a message from `first` on.
    func append(_ frames: [Frame], from first: Int = 0) { session.append(frames, from: first) }

    /// Writes what it can without blocking. False when the peer is gone.
    func write() -> Bool {
        while !session.output.isEmpty {
            let count = session.output.withUnwritten { bytes in
                send(descriptor, bytes.baseAddress!, bytes.count, Int32(MSG_NOSIGNAL))
            }
            if count > 0 {
                hasWritten = true
                session.output.removeFirst(count)
                continue
            }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return true }
            writeError = count < 0 ? errno : 0
            return false
        }
        return true
    }

    /// Whether a write failed because the peer closed its end (EPIPE,
    /// ECONNRESET) while what it sent before is still in the socket.
    var closedWithInputLeft: Bool { (writeError == EPIPE || writeError == ECONNRESET) && hasUnreadInput }

    /// Whether holding the peer back changes: it starts past the limit, and
    /// ends once half of what waited is written. Never during the handshake,
    /// which needs the peer's greeting and READY read to go on: what waits
    /// then is the greeting, READY, and what was sent before them.
    func updateHoldBack(now: UInt64) -> Bool {
        let queued = session.queued
        let limit = session.limits.maxOutput
        let hold = session.stage == .traffic && (isHeldBack ? queued > limit / 2 : queued > limit)
        guard hold != isHeldBack else { return false }
        isHeldBack = hold
        // Time held back is not the peer's: its unfinished message's clock starts again.
        if !hold, stalledSince != nil { stalledSince = now }
        return true
    }

    /// Reads once, without blocking, and hands `receiver` what the bytes
    /// complete. `scratch` is where reads land first (shared by every
    /// connection of a thread); only a part of a frame is kept here, and
    /// while one is, the read goes straight after it.
    func read(into scratch: UnsafeMutableRawBufferPointer, for receiver: some ZMTPReceiver, now: UInt64) {
        var sink = ConnectionSink(connection: self, receiver: receiver)
        let before = messagesIn
        if let room = session.room(atLeast: scratch.count) {
            let count = recv(descriptor, room.baseAddress, room.count, 0)
            guard received(count, for: receiver) else { return }
            lastInput = now
            session.received(count, delegate: &sink)
        } else {
            let count = recv(descriptor, scratch.baseAddress, scratch.count, 0)
            guard received(count, for: receiver) else { return }
            lastInput = now
            session.receive(UnsafeRawBufferPointer(rebasing: scratch[..<count]), delegate: &sink)
        }
        guard !isClosed else { return }
        if let failure = session.failure {
            _ = write()  // an ERROR the peer can read, when it was refused
            drop(failure, for: receiver)
        } else if session.isInsideMessage {
            // A message's clock starts with its first byte: in this read, when
            // this read completed the one before it.
            if stalledSince == nil || messagesIn != before { stalledSince = now }
        } else {
            stalledSince = nil
        }
    }

    /// Whether a read got bytes; closes the connection when the peer
    /// closed it or the read failed.
    private func received(_ count: Int, for receiver: some ZMTPReceiver) -> Bool {
        if count > 0 { return true }
        if count < 0 && errno == EINTR { return false }
        // Emptied, a read-only peer's socket has given what it sent before it closed.
        if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && !isReadOnly { return false }
        drop(nil, for: receiver)
        return false
    }

    func drop(_ problem: PeerProblem?, for receiver: some ZMTPReceiver) {
        guard !isClosed else { return }
        close()
        if let problem { receiver.report(self, problem) }
        receiver.closed(self)
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        _ = Glibc.close(descriptor)
        session.release()
        deferred = []
        budget?.give()
        budget = nil
    }
}
