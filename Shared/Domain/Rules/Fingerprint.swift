/// A 64-bit FNV-1a hash of text, the same on every platform and in every
/// process (unlike `Hasher`, which is seeded per process): what a store
/// remembers of a write's content beside its request key, and what a key
/// derives a post's uid from. Not a cryptographic hash: it tells a retry
/// from another write sent by mistake under the same key, not an attacker
/// from anyone.
public struct Fingerprint: Sendable, Hashable {
    public private(set) var value: UInt64

    public init(seed: UInt64 = 0xcbf2_9ce4_8422_2325) { value = seed }

    public mutating func add(_ text: String) {
        for byte in text.utf8 { add(byte) }
        add(0xff)  // never in UTF-8: "ab"+"c" differs from "a"+"bc"
    }

    public mutating func add(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }

    /// Sixteen lowercase hexadecimal digits.
    public var text: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
