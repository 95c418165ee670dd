#if canImport(Glibc)
@preconcurrency import Glibc
#endif

extension ZMTPConnection {
    /// Reads once, without blocking, and hands `receiver` what the bytes
    /// complete. `scratch` is where reads land first (shared by every
    /// connection of a thread); only a part of a frame is kept here.
    func read(into scratch: UnsafeMutableRawBufferPointer, for receiver: some ZMTPReceiver) {
        if input.isEmpty {
            let count = recv(descriptor, scratch.baseAddress, scratch.count, 0)
            guard received(count, for: receiver) else { return }
            let bytes = UnsafeRawBufferPointer(rebasing: scratch[..<count])
            let used = parse(bytes, for: receiver)
            if used < count, !isClosed { input.append(UnsafeRawBufferPointer(rebasing: bytes[used...])) }
            return
        }
        // Part of a frame is here already: read on after it, with room for
        // the whole frame, so a large frame is copied once.
        let count = input.receive(from: descriptor, atMost: max(scratch.count, needed - input.count))
        guard received(count, for: receiver) else { return }
        let used = parse(input.bytes, for: receiver)
        guard !isClosed else { return }
        input.removeFirst(used)
    }

    /// Whether a read got bytes; closes the connection when the peer
    /// closed it or the read failed.
    private func received(_ count: Int, for receiver: some ZMTPReceiver) -> Bool {
        if count > 0 { return true }
        if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return false }
        drop(nil, for: receiver)
        return false
    }

    /// Parses greeting, commands and frames; returns the bytes used. What
    /// is left is the start of something not yet whole.
    private func parse(_ bytes: UnsafeRawBufferPointer, for receiver: some ZMTPReceiver) -> Int {
        var at = 0
        // Read once, not for every frame; only the greeting and commands change it.
        var stage = self.stage
        while !isClosed {
            if stage == .greeting {
                guard bytes.count - at >= ZMTP.greetingSize else { needed = ZMTP.greetingSize; return at }
                if let problem = ZMTP.check(greeting: UnsafeRawBufferPointer(rebasing: bytes[at..<(at + ZMTP.greetingSize)])) {
                    refuse("\(problem)", for: receiver)
                    return bytes.count
                }
                at += ZMTP.greetingSize
                stage = .handshake
                self.stage = stage
                output.append(contentsOf: held)
                held = []
                if !write() {
                    drop(nil, for: receiver)
                    return bytes.count
                }
                continue
            }
            let available = bytes.count - at
            guard available >= 2 else { needed = 2; return at }
            let flags = bytes[at]
            var size = UInt64(bytes[at + 1])
            var header = 2
            if flags & ZMTP.long != 0 {
                guard available >= 9 else { needed = 9; return at }
                size = 0
                for byte in bytes[(at + 1)..<(at + 9)] { size = size << 8 | UInt64(byte) }
                header = 9
            }
            guard size <= UInt64(limits.maxFrameSize) else {
                drop(PeerProblem(.oversizedFrame, "a frame of \(size) bytes is over the limit of \(limits.maxFrameSize)"), for: receiver)
                return bytes.count
            }
            let end = at + header + Int(size)
            guard bytes.count >= end else { needed = end - at; return at }
            let body = UnsafeRawBufferPointer(rebasing: bytes[(at + header)..<end])
            at = end
            if flags & ZMTP.command != 0 {
                command(body, for: receiver)
                stage = self.stage
            } else if stage != .traffic {
                refuse("it sent a message before its READY", for: receiver)
            } else {
                frame(body, more: flags & ZMTP.more != 0, for: receiver)
            }
        }
        return bytes.count
    }

    private func frame(_ body: UnsafeRawBufferPointer, more: Bool, for receiver: some ZMTPReceiver) {
        guard let (count, tooMany) = incoming.add(body, more: more, prefix: prefix, limits: limits) else { return }
        // Once the receiver is done with the frames: reset while it still
        // held them, the room would be made anew for every message.
        defer { incoming.reset() }
        if tooMany {
            receiver.report(self, PeerProblem(.tooManyFrames, "a message of \(count) frames (at most \(limits.maxFrames))"))
            return
        }
        receiver.message(self, incoming.frames)
    }

    private func command(_ body: UnsafeRawBufferPointer, for receiver: some ZMTPReceiver) {
        guard let (name, data) = ZMTP.command(body) else {
            refuse("it sent a malformed command", for: receiver)
            return
        }
        switch (stage, name) {
        case (.handshake, "READY"):
            let type = ZMTP.property("Socket-Type", in: data).map { String(decoding: $0, as: UTF8.self) } ?? "(none)"
            guard peerTypes.contains(type) else {
                refuse("its socket type \(type.debugDescription) cannot talk to this one (\(peerTypes.sorted().joined(separator: ", ")) can)", for: receiver)
                return
            }
            if let refusal = receiver.ready(self, metadata: data) {
                refuse(refusal, for: receiver)
                return
            }
            stage = .traffic
        case (_, "ERROR"):
            drop(PeerProblem(.peerError, String(decoding: data.dropFirst(), as: UTF8.self)), for: receiver)
        case (.traffic, "PING"):
            // PONG echoes the ping's context, which follows its 2-byte TTL.
            ZMTP.appendCommand(to: &output, name: "PONG", data: Array(data.dropFirst(2).prefix(16)))
            _ = write()
        case (.traffic, _):
            break  // PONG, or a command of a later minor version: nothing to do.
        default:
            refuse("it sent \(name.debugDescription) during the handshake", for: receiver)
        }
    }

    /// Refuses the peer: an ERROR it can read, then closed.
    private func refuse(_ reason: String, for receiver: some ZMTPReceiver) {
        output.append(contentsOf: ZMTP.error(reason: reason))
        _ = write()
        drop(PeerProblem(.refused, reason), for: receiver)
    }

    func drop(_ problem: PeerProblem?, for receiver: some ZMTPReceiver) {
        guard !isClosed else { return }
        close()
        if let problem { receiver.report(self, problem) }
        receiver.closed(self)
    }
}
