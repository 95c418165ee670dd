import CZeroMQ

/// CURVE key pairs, as 40-character Z85 text, for encrypted tcp:// endpoints.
public enum Curve {
    public struct KeyPair: Sendable, Equatable {
        public let publicKey: String
        public let secretKey: String
    }

    /// Whether this libzmq was built with CURVE (Debian's is, through libsodium).
    public static var isAvailable: Bool { Context.has("curve") }

    public static func generateKeyPair() throws -> KeyPair {
        var publicKey = [CChar](repeating: 0, count: 41)
        var secretKey = [CChar](repeating: 0, count: 41)
        guard zmq_curve_keypair(&publicKey, &secretKey) == 0 else {
            throw ZMQError.last("generate CURVE key pair")
        }
        return KeyPair(publicKey: text(publicKey), secretKey: text(secretKey))
    }

    private static func text(_ characters: [CChar]) -> String {
        String(decoding: characters.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
