/// The greeting, and CURVE (RFC 26): its handshake commands, and its
/// traffic, where each frame travels boxed as a MESSAGE.
extension ZMTPSession {
    /// The peer's greeting: checked against our mechanism, then what
    /// follows it is sent: READY (NULL), HELLO (CURVE's client), or nothing
    /// until HELLO comes (CURVE's server).
    mutating func greeted(_ greeting: UnsafeRawBufferPointer) {
        let curve: CurveRole? =
            switch mechanism {
            case .null: nil
            case .curveServer(let server): .server(server.keys)
            case .curveClient(let client): .client(client.keys, serverKey: client.serverKey)
            }
        if let problem = ZMTP.check(greeting: greeting, curve: curve) {
            if case .mechanism = problem, curve != nil { handshakeOutcome = .mechanismMismatch }
            refuse("\(problem)")
            return
        }
        stage = .handshake
        switch mechanism {
        case .null:
            output.append(contentsOf: held)
            held = []
        case .curveServer:
            break
        case .curveClient(var client):
            guard let hello = client.hello() else {
                refuse("the server key this end was given is not a usable Curve25519 key")
                return
            }
            mechanism = .curveClient(client)
            output.append(contentsOf: hello)
        }
    }

    /// A command during CURVE's handshake, in its order. (After it every
    /// frame is taken as a MESSAGE: `open`.)
    mutating func curveCommand(
        _ name: String, _ data: UnsafeRawBufferPointer, delegate: inout some ZMTPSessionDelegate
    ) {
        switch (mechanism, stage, name) {
        case (_, _, "ERROR"):
            let reason = String(decoding: data.dropFirst(), as: UTF8.self)
            if case .curveClient = mechanism, stage == .handshake, let status = ZMTP.zapStatus(reason) {
                handshakeOutcome = .refused(status: status)
                end(PeerProblem(.refused, "the server refused this end's CURVE key (status \(status)): it is not on the server's allow-list"))
            } else {
                end(PeerProblem(.peerError, reason))
            }
        case (.curveServer(var server), .handshake, "HELLO"):
            let outcome = server.hello(data)
            mechanism = .curveServer(server)
            handshake(outcome)
        case (.curveServer(var server), .handshake, "INITIATE"):
            let outcome = server.initiate(data)
            mechanism = .curveServer(server)
            guard case .initiated(let clientKey, let metadata) = outcome else { return handshake(outcome) }
            guard delegate.admits(clientKey: clientKey) else {
                // As libzmq: the ZAP status alone, which a libzmq client reports as an authentication failure.
                return refuse("its CURVE key \(Curve.encode(clientKey).map(Curve.fingerprint) ?? "?") is not allowed", telling: "400")
            }
            guard metadata.withUnsafeBytes({ admit(metadata: $0, delegate: &delegate) }) else { return }
            let (ready, traffic) = server.ready(metadata: self.metadata)
            mechanism = .curveServer(server)
            output.append(contentsOf: ready)
            begin(traffic)
        case (.curveClient(var client), .handshake, "WELCOME"):
            let outcome = client.welcome(data, metadata: metadata)
            mechanism = .curveClient(client)
            switch outcome {
            case .reply(let initiate): output.append(contentsOf: initiate)
            case .failure(let reason):
                handshakeOutcome = .cryptographic
                refuse(reason)
            case .ready: break
            }
        case (.curveClient(var client), .handshake, "READY"):
            let outcome = client.ready(data)
            mechanism = .curveClient(client)
            switch outcome {
            case .ready(let metadata):
                guard metadata.withUnsafeBytes({ admit(metadata: $0, delegate: &delegate) }), let traffic = client.traffic else { return }
                begin(traffic)
            case .failure(let reason): refuse(reason)
            case .reply: break
            }
        default:
            refuse("it sent \(name.debugDescription) out of CURVE's order")
        }
    }

    private mutating func handshake(_ outcome: CurveServer.Outcome) {
        switch outcome {
        case .reply(let bytes): output.append(contentsOf: bytes)
        case .refused(let reason): refuse(reason)
        case .dropped(let reason): end(PeerProblem(.refused, reason))
        case .initiated: break
        }
    }

    /// The handshake is done: every frame from now on is a MESSAGE, and
    /// what was sent meanwhile goes out boxed.
    private mutating func begin(_ traffic: CurveTraffic) {
        handshakeOutcome = .succeeded
        self.traffic = traffic
        decoder.sealed = true
        stage = .traffic
        let messages = heldMessages
        heldMessages = []
        heldBytes = 0
        for message in messages { seal(message, from: 0) }
    }

    /// A message sent before the handshake is done.
    mutating func hold(_ frames: [Frame], from first: Int) {
        let message = Array(frames[first...])
        heldBytes += message.reduce(0) { $0 + $1.count + CurveWire.messageOverhead + 9 }
        heldMessages.append(message)
    }

    /// Appends each frame of a message from `first` on as a MESSAGE.
    mutating func seal(_ frames: [Frame], from first: Int) {
        // Taken out while it boxes, so that it is not copied (nor `self` held twice).
        var traffic = self.traffic!
        self.traffic = nil
        let last = frames.count - 1
        if wholeMessages, last > first {
            output.append { traffic.seal(frames, from: first, to: &$0) }
        } else {
            for index in first...last {
                frames[index].withUnsafeBytes { body in
                    output.append { traffic.seal(body, flags: index < last ? ZMTP.more : 0, to: &$0) }
                }
            }
        }
        if !traffic.canSend { end(PeerProblem(.refused, "this end has used every CURVE nonce of the connection")) }
        self.traffic = traffic
    }

    /// A MESSAGE: opened, then a frame of the message being put together,
    /// within the limits as if it had come in plaintext, or a command.
    mutating func open(_ body: UnsafeRawBufferPointer, delegate: inout some ZMTPSessionDelegate) {
        if delivered {
            incoming.reset()
            delivered = false
        }
        let limits = decoder.limits
        let prefix = decoder.prefix
        var problem: PeerProblem?
        var command: (name: String, data: [UInt8])?
        var message: (count: Int, tooMany: Bool)?
        var traffic = self.traffic!
        self.traffic = nil
        traffic.open(body) { opened in
            switch opened {
            case .failure(let reason):
                problem = PeerProblem(.refused, reason)
            case .frame(let flags, let text) where flags & ZMTP.wholeMessage != 0:
                guard wholeMessages, !incoming.hasBegun, flags == ZMTP.wholeMessage else {
                    problem = PeerProblem(.malformed, "it sent a whole-message box it did not say it would, or inside a message")
                    return
                }
                switch WholeMessage.add(text, to: &incoming, prefix: prefix, limits: limits) {
                case .success(let done): message = done
                case .failure(let wrong): problem = wrong
                }
            case .frame(let flags, let frame) where flags & ZMTP.command != 0:
                command = ZMTP.command(frame).map { ($0.name, Array($0.data)) }
                if command == nil || incoming.hasBegun { problem = PeerProblem(.malformed, "it sent a malformed command, or one inside a message") }
            case .frame(let flags, let frame):
                problem = limits.problem(frame: UInt64(frame.count), after: incoming.bytes)
                if problem == nil { message = incoming.add(frame, more: flags & ZMTP.more != 0, prefix: prefix, limits: limits) }
            }
        }
        self.traffic = traffic
        if let problem { return problem.kind == .refused ? refuse(problem.detail) : end(problem) }
        if let (count, tooMany) = message {
            delivered = true
            if tooMany {
                delegate.dropped(limits.tooManyFrames(count))
            } else {
                delegate.message(incoming.frames)
            }
        } else if let (name, data) = command {
            data.withUnsafeBytes { trafficCommand(name, $0, delegate: &delegate) }
        }
    }

    /// Appends a command as a box of its own (PONG, once the handshake is done).
    mutating func sealCommand(_ name: String, _ data: [UInt8]) {
        var traffic = self.traffic!
        self.traffic = nil
        ([UInt8(name.utf8.count)] + Array(name.utf8) + data).withUnsafeBytes { body in
            output.append { traffic.seal(body, flags: ZMTP.command, to: &$0) }
        }
        self.traffic = traffic
    }
}

extension ZMTP {
    /// A ZAP status code (RFC 27: 300, 400 or 500) sent as an ERROR's
    /// reason, as libzmq's CURVE server does when its handler refuses a key.
    static func zapStatus(_ reason: String) -> Int? {
        guard reason.utf8.count == 3, let code = Int(reason), [300, 400, 500].contains(code) else { return nil }
        return code
    }
}
