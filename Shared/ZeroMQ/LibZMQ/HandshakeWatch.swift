import CZeroMQ

/// Watches one socket's handshakes on a small thread of its own and reports
/// each outcome. The thread ends when the socket is closed or the context
/// shuts down.
///
/// Thread rules: call `watch` on the socket's own thread, before it connects.
public enum HandshakeWatch {
    public static func watch(_ socket: Socket, report: @escaping @Sendable (HandshakeEvent) -> Void) throws {
        // Made here, before the watched socket connects, so no event is sent
        // before anyone listens. The thread reads until the monitor stops
        // (the watched socket closed), so its end is never closed first.
        let listener = try ConnectionMonitor(watching: socket).socket
        let moved = UncheckedBox(listener)
        startSocketThread(named: "handshake-watch") {
            let listener = moved.value
            defer { listener.close() }
            // Connected, and no handshake outcome yet.
            var handshaking = false
            while let frames = try? listener.receive(), let event = decode(frames) {
                switch event {
                case .connected: handshaking = true
                case .disconnected:
                    if handshaking { report(.closedDuringHandshake) }
                    handshaking = false
                case .outcome(let outcome):
                    handshaking = false
                    report(outcome)
                }
            }
        }
    }

    /// What a socket monitor reports of a connection.
    public enum Monitored: Sendable, Equatable {
        case connected, disconnected
        case outcome(HandshakeEvent)
    }

    /// Frame 1: a 16-bit event and a 32-bit value (host byte order); frame 2:
    /// the endpoint. Nil ends the watch (the monitor stopped).
    public static func decode(_ frames: [Frame]) -> Monitored? {
        guard let first = frames.first, first.count >= 6 else { return nil }
        let (event, value) = first.withUnsafeBytes { bytes in
            (bytes.loadUnaligned(as: UInt16.self), bytes.loadUnaligned(fromByteOffset: 2, as: UInt32.self))
        }
        switch Int32(event) {
        case ZMQ_EVENT_CONNECTED: return .connected
        case ZMQ_EVENT_DISCONNECTED: return .disconnected
        case ZMQ_EVENT_HANDSHAKE_SUCCEEDED: return .outcome(.succeeded)
        case ZMQ_EVENT_HANDSHAKE_FAILED_AUTH: return .outcome(.refused(status: Int(value)))
        case ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL:
            switch Int64(value) {
            case Int64(ZMQ_PROTOCOL_ERROR_ZMTP_MECHANISM_MISMATCH): return .outcome(.mechanismMismatch)
            case Int64(ZMQ_PROTOCOL_ERROR_ZMTP_CRYPTOGRAPHIC): return .outcome(.cryptographic)
            default: return .outcome(.protocolError(code: value))
            }
        default: return nil  // ZMQ_EVENT_MONITOR_STOPPED, or anything else: the end
        }
    }
}
