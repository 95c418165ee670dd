/// One ZMTP 3.1 connection's protocol state, with no I/O: bytes the peer
/// sent go in (`receive`), whole messages come out to a delegate, and what
/// to send waits in `output` for whoever writes. The handshake's state
/// machine lives here: greeting, READY both ways (NULL) or CURVE's four
/// commands (ZMTPSession+Curve.swift), then traffic, with PING answered and
/// ERROR taken as the end.
///
/// libzmq closes a connection whose READY came before it had sent its own
/// greeting, so the greeting goes out alone first and READY is held until
/// the peer's greeting is in.
struct ZMTPSession {
    enum Stage { case greeting, handshake, traffic, ended }

    enum Admission {
        case admitted(prefix: Frame?)
        case refused(String)
    }

    /// The mechanism this end speaks: NULL (plaintext), or CURVE as the
    /// server or the client, with its keys and handshake state.
    enum Mechanism {
        case null
        case curveServer(CurveServer)
        case curveClient(CurveClient)

        var isCurve: Bool {
            if case .null = self { false } else { true }
        }
    }

    let peerTypes: Set<String>
    /// An XPUB's peers (SUB) may send their subscriptions as SUBSCRIBE and
    /// CANCEL commands (ZMTP 3.1): handed on as the messages older peers
    /// send instead, 1 or 0 and the topic.
    let subscriptionCommands: Bool
    var stage = Stage.greeting
    var decoder: ZMTPDecoder
    var mechanism: Mechanism
    /// CURVE's keys and nonces once its handshake is done.
    var traffic: CurveTraffic?
    /// Our READY's metadata (CURVE sends it boxed, in INITIATE or READY).
    let metadata: [UInt8]
    /// CURVE: messages sent before the handshake is done, boxed once it is,
    /// and their bytes.
    var heldMessages: [[Frame]] = []
    var heldBytes = 0
    /// CURVE: whether the peer takes a whole message in one box (it said
    /// so, `WholeMessage`); the message whose frames are being opened.
    var wholeMessages = false
    var incoming = IncomingMessage()
    var delivered = false
    /// Bytes received that do not yet make a whole greeting, command or frame.
    private var pending = PartialInput()
    /// How many bytes `pending` must hold before it can be decoded further.
    private var needed = 0
    /// What waits to be written to the peer.
    var output = OutputBuffer()
    /// What waits for the peer's greeting: our READY, then any messages.
    var held: [UInt8]
    /// Why the session ended, once it has: the connection writes what
    /// `output` holds (an ERROR the peer can read), then closes.
    private(set) var failure: PeerProblem?
    /// How the handshake ended (NULL: only its success), for a client to
    /// report once (`takeHandshakeOutcome`).
    var handshakeOutcome: HandshakeEvent?

    /// Queues the greeting; READY (with `identity`, when given) or CURVE's
    /// HELLO follows once the peer's greeting is read.
    init(
        socketType: String, identity: [UInt8]? = nil, peerTypes: Set<String>, limits: ZMTP.Limits, subscriptionCommands: Bool = false,
        curve: CurveRole? = nil, random: CurveRandom = .system
    ) {
        self.peerTypes = peerTypes
        self.subscriptionCommands = subscriptionCommands
        decoder = ZMTPDecoder(limits: limits)
        output.append(contentsOf: curve == nil ? ZMTP.greeting : ZMTP.greeting(curve: curve))
        var metadata = ZMTPEncoder.metadata(socketType: socketType, identity: identity)
        if curve != nil { ZMTPEncoder.appendProperty(to: &metadata, name: CurveWire.wholeMessages, value: [UInt8(ascii: "1")]) }
        self.metadata = metadata
        switch curve {
        case nil:
            mechanism = .null
            held = ZMTPEncoder.ready(socketType: socketType, identity: identity)
        case .server(let keys)?:
            mechanism = .curveServer(CurveServer(keys: keys, random: random))
            held = []
        case .client(let keys, let serverKey)?:
            mechanism = .curveClient(CurveClient(keys: keys, serverKey: serverKey, random: random))
            held = []
        }
    }

    var limits: ZMTP.Limits { decoder.limits }

    /// Whether part of a frame, or of a message, arrived and the rest has
    /// not, once the handshake is done (before, the handshake's own time
    /// limit applies).
    var isInsideMessage: Bool { stage == .traffic && (!pending.isEmpty || decoder.isInsideMessage || incoming.hasBegun) }

    // MARK: Receiving

    /// Takes bytes read into the reader's own buffer: hands on what they
    /// complete and keeps the rest.
    mutating func receive(_ bytes: UnsafeRawBufferPointer, delegate: inout some ZMTPSessionDelegate) {
        guard stage != .ended else { return }
        if pending.isEmpty {
            let used = decode(bytes, delegate: &delegate)
            if used < bytes.count, stage != .ended { pending.append(UnsafeRawBufferPointer(rebasing: bytes[used...])) }
        } else {
            pending.append(bytes)
            decodePending(delegate: &delegate)
        }
    }

    /// While part of something is kept: room after it for a reader to read
    /// into directly, so that a large frame is copied once. At least
    /// `minimum` bytes, at most what the part still lacks or as much again
    /// as is kept, whichever is more: memory follows the bytes that came,
    /// not the size a header announced. Nil when nothing is kept.
    mutating func room(atLeast minimum: Int) -> UnsafeMutableRawBufferPointer? {
        guard !pending.isEmpty, stage != .ended else { return nil }
        let lacking = needed - pending.count
        return pending.room(max(minimum, min(lacking, max(pending.count, minimum))))
    }

    /// Notes `count` bytes read into `room`, and decodes.
    mutating func received(_ count: Int, delegate: inout some ZMTPSessionDelegate) {
        pending.grow(by: count)
        decodePending(delegate: &delegate)
    }

    private mutating func decodePending(delegate: inout some ZMTPSessionDelegate) {
        // `pending` is not changed while its bytes are decoded.
        let used = decode(pending.bytes, delegate: &delegate)
        if stage == .ended { pending.release() } else { pending.removeFirst(used) }
    }

    /// Decodes what `bytes` hold; returns how many it used.
    private mutating func decode(_ bytes: UnsafeRawBufferPointer, delegate: inout some ZMTPSessionDelegate) -> Int {
        var at = 0
        while stage != .ended, let item = decoder.next(in: bytes, at: &at, needed: &needed) {
            switch item {
            case .message(let frames):
                // The usual case first; messages before READY are refused below.
                if stage == .traffic { delegate.message(frames) } else { refuse("it sent a message before its READY") }
            case .sealed(let body):
                open(body, delegate: &delegate)
            case .greeting(let greeting):
                greeted(greeting)
            case .command(let body):
                command(body, delegate: &delegate)
            case .tooManyFrames(let count):
                if stage == .traffic {
                    delegate.dropped(decoder.limits.tooManyFrames(count))
                } else {
                    refuse("it sent a message before its READY")
                }
            case .failure(let problem):
                end(problem)
            }
        }
        return at
    }

    private mutating func command(_ body: UnsafeRawBufferPointer, delegate: inout some ZMTPSessionDelegate) {
        guard let (name, data) = ZMTP.command(body) else {
            refuse("it sent a malformed command")
            return
        }
        if mechanism.isCurve {
            curveCommand(name, data, delegate: &delegate)
            return
        }
        switch (stage, name) {
        case (.traffic, _):
            trafficCommand(name, data, delegate: &delegate)
        case (.handshake, "READY"):
            if admit(metadata: data, delegate: &delegate) {
                stage = .traffic
                handshakeOutcome = .succeeded
            }
        case (_, "ERROR"):
            end(PeerProblem(.peerError, String(decoding: data.dropFirst(), as: UTF8.self)))
        default:
            refuse("it sent \(name.debugDescription) during the handshake")
        }
    }

    /// A command once the handshake is done, plaintext or opened from a
    /// CURVE box: PING is answered (the same way it came); a subscriber's
    /// SUBSCRIBE and CANCEL are handed on as the messages older peers send
    /// instead; ERROR ends the session.
    mutating func trafficCommand(_ name: String, _ data: UnsafeRawBufferPointer, delegate: inout some ZMTPSessionDelegate) {
        switch name {
        case "PING":
            // PONG echoes the ping's context, which follows its 2-byte TTL.
            queueCommand("PONG", Array(data.dropFirst(2).prefix(16)))
        case "SUBSCRIBE" where subscriptionCommands:
            delegate.message((decoder.prefix.map { [$0] } ?? []) + [Frame([1] + Array(data))])
        case "CANCEL" where subscriptionCommands:
            delegate.message((decoder.prefix.map { [$0] } ?? []) + [Frame([0] + Array(data))])
        case "ERROR":
            end(PeerProblem(.peerError, String(decoding: data.dropFirst(), as: UTF8.self)))
        default:
            break  // PONG, or a command of a later minor version: nothing to do.
        }
    }

    /// Queues a PING (ZMTP 3.1's heartbeat: a TTL of 0, no context),
    /// boxed under CURVE. The peer's PONG, or anything else it sends,
    /// answers it.
    mutating func ping() { queueCommand("PING", [0, 0]) }

    /// Queues a command of traffic the way the peer takes one: boxed under
    /// CURVE, plain otherwise.
    private mutating func queueCommand(_ name: String, _ data: [UInt8]) {
        if traffic != nil {
            sealCommand(name, data)
        } else {
            output.append { ZMTPEncoder.appendCommand(to: &$0, name: name, data: data) }
        }
    }

    /// The peer's metadata (its READY, or what CURVE's INITIATE or READY
    /// held): its socket type must fit ours, and the owner lets it in and
    /// names it. Under CURVE it may also say it takes whole messages in one
    /// box (`WholeMessage`).
    mutating func admit(metadata data: UnsafeRawBufferPointer, delegate: inout some ZMTPSessionDelegate) -> Bool {
        let type = ZMTP.property("Socket-Type", in: data).map { String(decoding: $0, as: UTF8.self) } ?? "(none)"
        guard peerTypes.contains(type) else {
            refuse("its socket type \(type.debugDescription) cannot talk to this one (\(peerTypes.sorted().joined(separator: ", ")) can)")
            return false
        }
        switch delegate.ready(metadata: data) {
        case .admitted(let prefix):
            decoder.prefix = prefix
            if mechanism.isCurve, ZMTP.property(CurveWire.wholeMessages, in: data) == [UInt8(ascii: "1")] {
                wholeMessages = true
                // A box may hold a whole message: its bytes, a header a frame, and the MESSAGE's own.
                let limits = decoder.limits
                decoder.sealedLimit = UInt64(limits.maxMessageSize + 9 * (limits.maxFrames + 1) + CurveWire.messageOverhead)
            }
            return true
        case .refused(let reason):
            refuse(reason)
            return false
        }
    }

    /// Refuses the peer: an ERROR it can read (`reason`, or what it is
    /// told instead), then the end.
    mutating func refuse(_ reason: String, telling told: String? = nil) {
        output.append(contentsOf: ZMTPEncoder.error(reason: told ?? reason))
        end(PeerProblem(.refused, reason))
    }

    mutating func end(_ problem: PeerProblem) {
        stage = .ended
        failure = problem
    }

    // MARK: Sending

    /// Queues the frames of a message from `first` on: held until the
    /// peer's greeting is in, then in `output`.
    mutating func append(_ frames: [Frame], from first: Int = 0) {
        if traffic != nil {
            seal(frames, from: first)
        } else if !mechanism.isCurve {
            if stage == .greeting {
                ZMTPEncoder.append(frames, from: first, to: &held)
            } else {
                output.append { ZMTPEncoder.append(frames, from: first, to: &$0) }
            }
        } else {
            hold(frames, from: first)
        }
    }

    /// How the handshake ended, once, when it has.
    mutating func takeHandshakeOutcome() -> HandshakeEvent? {
        defer { handshakeOutcome = nil }
        return handshakeOutcome
    }

    /// Bytes waiting to be written, those held for the handshake included.
    var queued: Int { output.count + held.count + heldBytes }

    /// Lets go of every byte and message waiting to be written: the peer
    /// is gone, though what it sent is still to be read.
    mutating func discardOutput() {
        output.removeAll()
        held = []
        heldMessages = []
        heldBytes = 0
    }

    /// Lets go of everything held: the connection is closed.
    mutating func release() {
        stage = .ended
        pending.release()
        discardOutput()
        incoming = IncomingMessage()
        traffic = nil
        decoder = ZMTPDecoder(limits: decoder.limits)
    }
}
