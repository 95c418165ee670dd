/// CURVE once the handshake is done: each frame travels as one MESSAGE, a
/// box under the two short-term keys' shared key, whose nonce is a short
/// nonce that goes up by one with every command or message sent. A box
/// that does not open, or whose nonce is not above the last one taken (a
/// replay, or frames out of order), ends the connection.
///
/// Like libzmq, a MESSAGE goes out as a frame without flags (the flags byte
/// inside the box says whether more frames follow, and whether it is a
/// command such as PING); one that comes in may carry the command flag
/// too, as RFC 26 has it.
struct CurveTraffic {
    /// Each direction's boxes: its own nonce prefix, the same shared key.
    private let sending: BoxDirection
    private let receiving: BoxDirection
    /// The nonce of the next box this end sends, and the last one taken.
    private var nonce: UInt64
    private var peerNonce: UInt64
    /// Where a box opens into: the flags byte, then the frame.
    private var plain: [UInt8] = []
    static let keptRoom = 1 << 16
    /// A MESSAGE command's first 8 bytes, its name's length and its name,
    /// as one number: compared once a frame.
    static let messageName = messageStart.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
    /// What each MESSAGE starts with (its name's length and its name), and
    /// the room its authenticator is written into: appended as they are.
    static let messageStart: [UInt8] = [7] + Array(CurveWire.message.utf8)
    static let macRoom = [UInt8](repeating: 0, count: Sodium.macSize)

    init(key: [UInt8], isServer: Bool, peerNonce: UInt64, nextNonce: UInt64 = 1) {
        self.peerNonce = peerNonce
        nonce = nextNonce
        sending = BoxDirection(key: key, prefix: isServer ? CurveWire.serverMessageNonce : CurveWire.clientMessageNonce)
        receiving = BoxDirection(key: key, prefix: isServer ? CurveWire.clientMessageNonce : CurveWire.serverMessageNonce)
    }

    /// The short nonce for the next box sent (READY's, for the server).
    mutating func takeNonce() -> UInt64 {
        defer { nonce &+= 1 }
        return nonce
    }

    /// Whether this end may send another box: a short nonce is never used
    /// twice, so the connection ends before they run out.
    var canSend: Bool { nonce < .max }

    /// Appends `body` as one MESSAGE: the frame header, the name, the short
    /// nonce, then the box of the flags byte and the body, boxed in place.
    mutating func seal(_ body: UnsafeRawBufferPointer, flags: UInt8, to output: inout [UInt8]) {
        let (nonceAt, macAt) = start(size: 1 + body.count, to: &output)
        output.append(flags)
        output.append(contentsOf: body)
        box(nonceAt: nonceAt, macAt: macAt, in: &output)
    }

    /// Appends the frames of a message from `first` on as one MESSAGE, its
    /// flags byte `ZMTP.wholeMessage` and then the frames as ZMTP frames:
    /// for a peer that said it takes them so (`X-Whole-Messages`).
    mutating func seal(_ frames: [Frame], from first: Int, to output: inout [UInt8]) {
        var size = 1
        for frame in frames[first...] { size += ZMTPEncoder.headerLength(size: frame.count) + frame.count }
        let (nonceAt, macAt) = start(size: size, to: &output)
        output.append(ZMTP.wholeMessage)
        ZMTPEncoder.append(frames, from: first, to: &output)
        box(nonceAt: nonceAt, macAt: macAt, in: &output)
    }

    /// A MESSAGE's frame header, name, short nonce and room for its
    /// authenticator, for a box of `size` bytes; where the nonce and the
    /// authenticator are.
    private mutating func start(size: Int, to output: inout [UInt8]) -> (nonceAt: Int, macAt: Int) {
        let short = takeNonce()
        ZMTPEncoder.appendHeader(to: &output, size: CurveWire.messageOverhead - 1 + size, flags: 0)
        output.append(contentsOf: Self.messageStart)
        let nonceAt = output.count
        withUnsafeBytes(of: short.bigEndian) { output.append(contentsOf: $0) }
        let macAt = output.count
        output.append(contentsOf: Self.macRoom)
        return (nonceAt, macAt)
    }

    /// Boxes what follows the authenticator's room, in place.
    private func box(nonceAt: Int, macAt: Int, in output: inout [UInt8]) {
        let count = output.count - macAt - Sodium.macSize
        output.withUnsafeMutableBytes { bytes in
            let base = bytes.baseAddress!
            sending.seal(
                base + macAt + Sodium.macSize, count: count, mac: base + macAt,
                nonce: UnsafePointer((base + nonceAt).assumingMemoryBound(to: UInt8.self)))
        }
    }

    enum Opened {
        /// The flags byte and the frame's bytes, valid until the next `open`.
        case frame(flags: UInt8, body: UnsafeRawBufferPointer)
        case failure(String)
    }

    /// Opens a MESSAGE's command body (name included) and hands `body` what
    /// it held.
    mutating func open<Result>(_ command: UnsafeRawBufferPointer, _ body: (Opened) -> Result) -> Result {
        guard command.count >= 8 + CurveWire.messageMinimum, command.loadUnaligned(as: UInt64.self) == Self.messageName else {
            return body(
                .failure("it sent something other than a MESSAGE after the CURVE handshake (plaintext, or too short for a box)"))
        }
        let short = CurveWire.number(command[8..<16])
        guard short > peerNonce else {
            return body(.failure("its MESSAGE's nonce \(short) is not above the last one, \(peerNonce): replayed or out of order"))
        }
        let box = UnsafeRawBufferPointer(rebasing: command[16...])
        let count = box.count - Sodium.macSize
        if plain.count < count { plain = [UInt8](repeating: 0, count: max(count, plain.count * 2)) }
        let nonce = (command.baseAddress! + 8).assumingMemoryBound(to: UInt8.self)
        let opened = plain.withUnsafeMutableBytes { receiving.open(box, into: $0.baseAddress!, nonce: nonce) }
        guard opened else { return body(.failure("its MESSAGE does not open: changed on the way, or not boxed for this connection")) }
        peerNonce = short
        // A large frame's room is not kept: memory follows what comes.
        defer { if plain.count > Self.keptRoom { plain = [] } }
        return plain.withUnsafeBytes { plain in
            body(.frame(flags: plain[0], body: UnsafeRawBufferPointer(rebasing: plain[1..<count])))
        }
    }
}
