/// Turns the bytes a peer sent into ZMTP's units: first its 64-byte
/// greeting, then commands and whole messages. Every limit is checked as a
/// frame's header arrives, before any of its body is held. No system calls:
/// the bytes come from whoever read them, so tests feed it byte arrays.
struct ZMTPDecoder {
    enum Item {
        /// The peer's greeting, not yet checked.
        case greeting(UnsafeRawBufferPointer)
        /// A command's body: its name, then its data.
        case command(UnsafeRawBufferPointer)
        /// A whole message (`prefix` first, when set); valid until `next`
        /// is called again.
        case message([Frame])
        /// A message of more than `maxFrames` frames, dropped as it arrived:
        /// how many frames it had.
        case tooManyFrames(count: Int)
        /// The peer broke a limit; nothing more is decoded.
        case failure(PeerProblem)
        /// Once CURVE's handshake is done (`sealed`): a frame as it came,
        /// a MESSAGE whose box the session opens.
        case sealed(UnsafeRawBufferPointer)
    }

    let limits: ZMTP.Limits
    private var expectsGreeting = true
    /// The first frame of every message, when set: a router sets the peer's
    /// routing id here once its READY is read.
    var prefix: Frame?
    private var incoming = IncomingMessage()
    /// A message was handed out and may still be in use.
    private var delivered = false
    /// Whether every frame is a CURVE MESSAGE (after its handshake): each
    /// is handed on alone, `.sealed`, within the frame limit plus what a
    /// MESSAGE adds.
    var sealed = false
    /// The largest such frame: one frame's limit and what a MESSAGE adds,
    /// or more once the peer boxes whole messages (`ZMTPSession`).
    var sealedLimit: UInt64

    private let frameLimit: UInt64
    private let messageLimit: UInt64

    init(limits: ZMTP.Limits) {
        self.limits = limits
        frameLimit = UInt64(limits.maxFrameSize)
        sealedLimit = UInt64(limits.maxFrameSize + CurveWire.messageOverhead)
        messageLimit = UInt64(limits.maxMessageSize)
    }

    /// Whether frames of a message that has not ended are held.
    var isInsideMessage: Bool { incoming.hasBegun }

    /// The next item in `bytes` from `at` on, moving `at` past it; nil when
    /// what is left is not whole, with `needed` set to how many bytes from
    /// `at` it takes.
    mutating func next(in bytes: UnsafeRawBufferPointer, at: inout Int, needed: inout Int) -> Item? {
        if delivered {
            // Only now: reset while the caller still held the frames, the
            // room would be made anew for every message.
            incoming.reset()
            delivered = false
        }
        while true {
            let available = bytes.count - at
            if expectsGreeting {
                guard available >= ZMTP.greetingSize else { needed = ZMTP.greetingSize; return nil }
                defer { at += ZMTP.greetingSize }
                expectsGreeting = false
                return .greeting(UnsafeRawBufferPointer(rebasing: bytes[at..<(at + ZMTP.greetingSize)]))
            }
            let (flags, size, header): (UInt8, UInt64, Int)
            switch Self.header(in: bytes, at: at) {
            case .needs(let count):
                needed = count
                return nil
            case .header(let found):
                (flags, size, header) = found
            }
            if sealed {
                guard size <= sealedLimit else {
                    return .failure(PeerProblem(.oversizedFrame, "a MESSAGE of \(size) bytes is over the limit of \(sealedLimit)"))
                }
                let end = at + header + Int(size)
                guard bytes.count >= end else { needed = end - at; return nil }
                defer { at = end }
                return .sealed(UnsafeRawBufferPointer(rebasing: bytes[(at + header)..<end]))
            }
            // The usual frame passes on two comparisons; the rest is checked apart.
            let fits = flags & ZMTP.command == 0 && size <= frameLimit && UInt64(incoming.bytes) + size <= messageLimit
            if !fits, let problem = check(size: size, flags: flags) { return .failure(problem) }
            let end = at + header + Int(size)
            guard bytes.count >= end else { needed = end - at; return nil }
            let body = UnsafeRawBufferPointer(rebasing: bytes[(at + header)..<end])
            at = end
            if flags & ZMTP.command != 0 { return .command(body) }
            guard let (count, tooMany) = incoming.add(body, more: flags & ZMTP.more != 0, prefix: prefix, limits: limits) else { continue }
            delivered = true
            return tooMany ? .tooManyFrames(count: count) : .message(incoming.frames)
        }
    }

    /// Why a frame of `size` bytes with `flags` may not be read, if it may not.
    private func check(size: UInt64, flags: UInt8) -> PeerProblem? {
        if flags & ZMTP.command != 0 {
            // A command in the middle of a message: libzmq cannot send one,
            // and taking it would leave the message's frames behind it.
            guard !incoming.hasBegun else { return PeerProblem(.malformed, "it sent a command inside a message") }
            guard size <= UInt64(ZMTP.maxCommandSize) else {
                return PeerProblem(.oversizedFrame, "a command of \(size) bytes is over the limit of \(ZMTP.maxCommandSize)")
            }
            return nil
        }
        return limits.problem(frame: size, after: incoming.bytes)
    }

    enum Header {
        /// Its flags, its body's size, and its own length (2 or 9 bytes).
        case header((flags: UInt8, size: UInt64, length: Int))
        /// Fewer bytes than it takes are there: at least this many.
        case needs(Int)
    }

    /// The frame header at `at` (RFC 23: flags, then the size in one byte,
    /// or in eight when the flags say long): the one reading of it, for
    /// the stream and for the frames inside a whole-message box.
    @inline(__always)
    static func header(in bytes: UnsafeRawBufferPointer, at: Int) -> Header {
        let available = bytes.count - at
        guard available >= 2 else { return .needs(2) }
        let flags = bytes[at]
        guard flags & ZMTP.long != 0 else { return .header((flags, UInt64(bytes[at + 1]), 2)) }
        guard available >= 9 else { return .needs(9) }
        var size: UInt64 = 0
        for byte in bytes[(at + 1)..<(at + 9)] { size = size << 8 | UInt64(byte) }
        return .header((flags, size, 9))
    }
}
