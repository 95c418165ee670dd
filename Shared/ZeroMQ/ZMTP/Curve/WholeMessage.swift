/// A whole message in one CURVE box, between our own ends: each end says
/// it takes them (`CurveWire.wholeMessages` in its metadata), and then
/// sends a message of several frames as one MESSAGE whose flags byte is
/// `ZMTP.wholeMessage`, the frames inside ZMTP-encoded, instead of one
/// MESSAGE a frame. Where each box costs its Salsa20 and Poly1305, a
/// broker's request of six frames costs one box instead of six. libzmq
/// never says it, so to libzmq each frame is still its own box.
enum WholeMessage {
    /// Adds the frames `text` holds to `incoming` (which holds nothing
    /// yet), each within the limits as if it had come alone: the message's
    /// frame count and whether they were too many, or what is wrong.
    static func add(
        _ text: UnsafeRawBufferPointer, to incoming: inout IncomingMessage, prefix: Frame?, limits: ZMTP.Limits
    ) -> Result<(count: Int, tooMany: Bool), PeerProblem> {
        let malformed = PeerProblem(.malformed, "it sent a whole-message box whose frames do not add up")
        var at = 0
        while at < text.count {
            guard case .header(let (flags, size, header)) = ZMTPDecoder.header(in: text, at: at),
                flags & ~(ZMTP.more | ZMTP.long) == 0
            else { return .failure(malformed) }
            if let wrong = limits.problem(frame: size, after: incoming.bytes) { return .failure(wrong) }
            let end = at + header + Int(size)
            guard end <= text.count else { return .failure(malformed) }
            let body = UnsafeRawBufferPointer(rebasing: text[(at + header)..<end])
            at = end
            if let done = incoming.add(body, more: flags & ZMTP.more != 0, prefix: prefix, limits: limits) {
                return at == text.count ? .success(done) : .failure(malformed)
            }
        }
        return .failure(malformed)
    }
}
