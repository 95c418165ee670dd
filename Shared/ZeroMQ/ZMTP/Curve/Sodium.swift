import CSodium

/// The libsodium primitives CURVE (RFC 26) is made of, the ones libzmq
/// uses for it: Curve25519 keys, and XSalsa20-Poly1305 boxes, public-key
/// (`seal`/`open` with a key `precompute`d from the two ends' keys) and
/// secret-key (the cookie). Pure computations: no system call but the
/// random generator's, which `CurveRandom` stands for.
enum Sodium {
    static let keySize = 32
    static let nonceSize = 24
    /// What a box adds to what it holds: its Poly1305 authenticator.
    static let macSize = 16

    /// libsodium must be set up once before use; its own call is thread-safe
    /// and idempotent, and this runs it once per process.
    private static let isReady: Bool = sodium_init() >= 0

    static func ensureReady() {
        precondition(isReady, "libsodium could not be initialised")
    }

    /// The public key that belongs to a 32-byte secret key.
    static func publicKey(secret: [UInt8]) -> [UInt8] {
        ensureReady()
        var key = [UInt8](repeating: 0, count: keySize)
        _ = crypto_scalarmult_base(&key, secret)
        return key
    }

    /// The key two ends share, from one's public key and the other's
    /// secret key; nil for a public key of low order (the shared key would
    /// be all zero, known to anyone).
    static func precompute(public peer: [UInt8], secret: [UInt8]) -> [UInt8]? {
        ensureReady()
        guard peer.count == keySize, secret.count == keySize else { return nil }
        var key = [UInt8](repeating: 0, count: keySize)
        return crypto_box_beforenm(&key, peer, secret) == 0 ? key : nil
    }

    /// A box of `plain` (authenticator first), under a precomputed key.
    static func seal(_ plain: [UInt8], nonce: [UInt8], key: [UInt8]) -> [UInt8] {
        var box = [UInt8](repeating: 0, count: macSize + plain.count)
        _ = crypto_box_easy_afternm(&box, plain, UInt64(plain.count), nonce, key)
        return box
    }

    /// What a box holds, or nil when it was not made under this key and
    /// nonce, or was changed on the way.
    static func open(_ box: UnsafeRawBufferPointer, nonce: [UInt8], key: [UInt8]) -> [UInt8]? {
        guard box.count >= macSize else { return nil }
        // One byte more than it holds, so that an empty box has somewhere to open into.
        var plain = [UInt8](repeating: 0, count: box.count - macSize + 1)
        let opened = crypto_box_open_easy_afternm(
            &plain, box.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(box.count), nonce, key)
        plain.removeLast()
        return opened == 0 ? plain : nil
    }

    /// A secret-key box (the server's cookie), authenticator first.
    static func secretSeal(_ plain: [UInt8], nonce: [UInt8], key: [UInt8]) -> [UInt8] {
        ensureReady()
        var box = [UInt8](repeating: 0, count: macSize + plain.count)
        _ = crypto_secretbox_easy(&box, plain, UInt64(plain.count), nonce, key)
        return box
    }

    static func secretOpen(_ box: UnsafeRawBufferPointer, nonce: [UInt8], key: [UInt8]) -> [UInt8]? {
        ensureReady()
        guard box.count > macSize else { return nil }
        var plain = [UInt8](repeating: 0, count: box.count - macSize)
        let opened = crypto_secretbox_open_easy(
            &plain, box.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(box.count), nonce, key)
        return opened == 0 ? plain : nil
    }
}

/// Where CURVE's fresh keys, cookie keys and long nonces come from:
/// libsodium's generator, or in tests a fixed sequence, so that a
/// handshake's bytes can be known in advance.
struct CurveRandom: Sendable {
    let fill: @Sendable (UnsafeMutableRawBufferPointer) -> Void

    static let system = CurveRandom { buffer in
        Sodium.ensureReady()
        randombytes_buf(buffer.baseAddress!, buffer.count)
    }

    func bytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { fill($0) }
        return bytes
    }
}

/// The boxes of one direction of CURVE's traffic: XSalsa20-Poly1305 under
/// one key, each nonce a fixed 16-byte prefix ("CurveZMQMESSAGEC" or "…S")
/// and an 8-byte short nonce. XSalsa20 derives a subkey from the key and the
/// nonce's first 16 bytes (HSalsa20), then runs Salsa20 under it with the
/// last 8; the prefix never changes, so the subkey is derived once here
/// instead of once a box, which was an eighth of the gateway's time. What
/// each box then costs is Salsa20 and Poly1305; the bytes are those of
/// `crypto_box_easy_afternm` (the known-answer tests build them so).
struct BoxDirection {
    private var subkey = [UInt8](repeating: 0, count: Sodium.keySize)

    init(key: [UInt8], prefix: [UInt8]) {
        Sodium.ensureReady()
        _ = crypto_core_hsalsa20(&subkey, prefix, key, nil)
    }

    /// The first 64 bytes of the stream for `nonce` (8 bytes): Poly1305's
    /// one-time key, then what the first 32 bytes of the text are XORed with.
    private func firstBlock(_ block: UnsafeMutablePointer<UInt8>, nonce: UnsafePointer<UInt8>) {
        _ = crypto_stream_salsa20(block, 64, nonce, subkey)
    }

    /// XORs `count` bytes at `text` with the stream from byte 32 on.
    private func xor(_ text: UnsafeMutablePointer<UInt8>, count: Int, block: UnsafePointer<UInt8>, nonce: UnsafePointer<UInt8>) {
        let first = min(count, 32)
        for index in 0..<first { text[index] ^= block[32 + index] }
        if count > first { _ = crypto_stream_salsa20_xor_ic(text + first, text + first, UInt64(count - first), nonce, 1, subkey) }
    }

    /// Boxes `count` bytes at `text` in place, the authenticator to `mac`.
    func seal(_ text: UnsafeMutableRawPointer, count: Int, mac: UnsafeMutableRawPointer, nonce: UnsafePointer<UInt8>) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { block in
            let block = block.baseAddress!
            firstBlock(block, nonce: nonce)
            let bytes = text.assumingMemoryBound(to: UInt8.self)
            xor(bytes, count: count, block: block, nonce: nonce)
            _ = crypto_onetimeauth_poly1305(mac.assumingMemoryBound(to: UInt8.self), bytes, UInt64(count), block)
        }
    }

    /// Opens a box (authenticator first) into `text`, which has room for
    /// what it holds; false when it does not open.
    func open(_ box: UnsafeRawBufferPointer, into text: UnsafeMutableRawPointer, nonce: UnsafePointer<UInt8>) -> Bool {
        let count = box.count - Sodium.macSize
        let base = box.baseAddress!.assumingMemoryBound(to: UInt8.self)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { block in
            let block = block.baseAddress!
            firstBlock(block, nonce: nonce)
            guard crypto_onetimeauth_poly1305_verify(base, base + Sodium.macSize, UInt64(count), block) == 0 else { return false }
            let bytes = text.assumingMemoryBound(to: UInt8.self)
            bytes.update(from: base + Sodium.macSize, count: count)
            xor(bytes, count: count, block: block, nonce: nonce)
            return true
        }
    }
}
