import CZeroMQ
import Synchronization

/// Watches one socket's handshakes on a small thread of its own and reports
/// each outcome. The thread ends when the socket is closed or the context
/// shuts down.
///
/// Thread rules: call `watch` on the socket's own thread, before it connects.
public enum HandshakeWatch {
    private static let counter = Atomic<Int>(0)

    public static func watch(_ socket: Socket, report: @escaping @Sendable (HandshakeEvent) -> Void) throws {
        let number = counter.add(1, ordering: .relaxed).newValue
        let address = "inproc://handshake-watch-\(number)"
        let events =
            ZMQ_EVENT_HANDSHAKE_SUCCEEDED | ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL | ZMQ_EVENT_HANDSHAKE_FAILED_AUTH
            | ZMQ_EVENT_CONNECTED | ZMQ_EVENT_DISCONNECTED
        guard zmq_socket_monitor(socket.handle, address, events) == 0 else {
            throw ZMQError.last("monitor \(socket.type) socket")
        }
        // Connected here, before the watched socket connects, so no event is
        // sent before anyone listens.
        let listener = try Socket(socket.context, .pair)
        try listener.connect(address)
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
