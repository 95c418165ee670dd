import CZeroMQ
import Synchronization

/// What became of a connection's security handshake, from libzmq's socket
/// monitor: how a client learns that a server refused its key, wants a key
/// it does not have, or hung up mid-handshake (a wrong server key).
public enum HandshakeEvent: Sendable, Equatable {
    case succeeded
    /// The server's ZAP handler refused this peer (status code, such as 400).
    case refused(status: Int)
    /// The two ends use different mechanisms: one CURVE, the other plaintext.
    case mechanismMismatch
    /// Decryption failed: the keys do not belong together.
    case cryptographic
    /// Another handshake failure (libzmq's ZMQ_PROTOCOL_ERROR_* code).
    case protocolError(code: UInt32)
    /// The connection was made and closed before the handshake ended: what
    /// a client sees when the server cannot decrypt its hello, because the
    /// server key the client was given is not the server's.
    case closedDuringHandshake
}

extension HandshakeEvent: CustomStringConvertible {
    public var description: String {
        switch self {
        case .succeeded: "handshake succeeded"
        case .refused(let status):
            "the server refused this process's CURVE key (ZAP status \(status)): its public key is not on the server's allow-list"
        case .mechanismMismatch: "one end uses CURVE and the other does not"
        case .cryptographic: "the CURVE handshake failed to decrypt: the server key this process was given is not the server's"
        case .protocolError(let code): "the security handshake failed (libzmq protocol error 0x\(String(code, radix: 16)))"
        case .closedDuringHandshake: "the server closed the connection during the handshake"
        }
    }
}
