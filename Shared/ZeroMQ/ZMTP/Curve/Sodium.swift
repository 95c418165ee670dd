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

    /// Boxes `count` bytes at `plain` in place: the authenticator goes to
    /// `mac`, the 16 bytes before them in a MESSAGE.
    static func sealInPlace(_ plain: UnsafeMutableRawPointer, count: Int, mac: UnsafeMutableRawPointer, nonce: UnsafePointer<UInt8>, key: [UInt8]) {
        let bytes = plain.assumingMemoryBound(to: UInt8.self)
        _ = crypto_box_detached_afternm(bytes, mac.assumingMemoryBound(to: UInt8.self), bytes, UInt64(count), nonce, key)
    }

    /// Opens a box (authenticator first) into `plain`, which has room for
    /// what it holds; false when it does not open.
    static func open(
        _ box: UnsafeRawBufferPointer, into plain: UnsafeMutableRawPointer, nonce: UnsafePointer<UInt8>, key: [UInt8]
    ) -> Bool {
        let base = box.baseAddress!.assumingMemoryBound(to: UInt8.self)
        return crypto_box_open_detached_afternm(
            plain.assumingMemoryBound(to: UInt8.self), base + macSize, base, UInt64(box.count - macSize), nonce, key) == 0
    }
}

/// Where CURVE's fresh keys, cookie keys and long nonces come from:
/// libsodium's generator, or in tests a fixed sequence, so that a
/// handshake's bytes can be known in advance.
struct CurveRandom: @unchecked Sendable {
    let fill: (UnsafeMutableRawBufferPointer) -> Void

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
