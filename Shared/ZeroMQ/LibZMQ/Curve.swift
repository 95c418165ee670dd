import CZeroMQ

/// CURVE key pairs, as 40-character Z85 text, for encrypted tcp:// endpoints.
public enum Curve {
    public struct KeyPair: Sendable, Equatable {
        public let publicKey: String
        public let secretKey: String

        public init(publicKey: String, secretKey: String) {
            self.publicKey = publicKey
            self.secretKey = secretKey
        }
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

    /// The public key that belongs to a secret key; nil if `secretKey` is
    /// not 40 characters of Z85.
    public static func publicKey(forSecret secretKey: String) -> String? {
        guard isKey(secretKey) else { return nil }
        var publicKey = [CChar](repeating: 0, count: 41)
        guard zmq_curve_public(&publicKey, secretKey) == 0 else { return nil }
        return text(publicKey)
    }

    /// A short name for a public key in logs and messages: its first 12 Z85
    /// characters, enough to find the key file (grep it).
    public static func fingerprint(_ publicKey: String) -> String {
        String(publicKey.prefix(12))
    }

    /// Whether `text` is a key: 40 characters of Z85 that decode to 32 bytes.
    public static func isKey(_ text: String) -> Bool {
        decode(text) != nil
    }

    /// The 32 bytes a Z85 key stands for, or nil.
    public static func decode(_ text: String) -> [UInt8]? {
        guard text.utf8.count == 40 else { return nil }
        var bytes = [UInt8](repeating: 0, count: 32)
        return zmq_z85_decode(&bytes, text) == nil ? nil : bytes
    }

    /// Z85 text of a 32-byte key (as a ZAP request carries it).
    public static func encode(_ bytes: [UInt8]) -> String? {
        guard bytes.count == 32 else { return nil }
        var characters = [CChar](repeating: 0, count: 41)
        return zmq_z85_encode(&characters, bytes, 32) == nil ? nil : text(characters)
    }

    private static func text(_ characters: [CChar]) -> String {
        String(decoding: characters.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
