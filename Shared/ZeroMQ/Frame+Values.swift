#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Frame: Equatable, Hashable {
    public static func == (lhs: Frame, rhs: Frame) -> Bool {
        lhs.storage === rhs.storage || lhs.holds(rhs.storage.bytes)
    }

    /// Whether the frame's bytes are exactly `buffer`'s.
    func holds(_ buffer: UnsafeRawBufferPointer) -> Bool {
        let bytes = storage.bytes
        return bytes.count == buffer.count && (bytes.isEmpty || memcmp(bytes.baseAddress!, buffer.baseAddress!, bytes.count) == 0)
    }

    /// A frame of up to eight bytes (a routing id, a header) goes to the
    /// hasher as one word, not as a buffer to walk. Below eight bytes the
    /// word's last byte is free and holds the length, so frames that differ
    /// only in trailing zero bytes hash apart; an eight-byte frame fills the
    /// word and may share a hash with a shorter one, which equality sorts out.
    public func hash(into hasher: inout Hasher) {
        let bytes = storage.bytes
        guard bytes.count <= 8 else { return hasher.combine(bytes: bytes) }
        var word: UInt64 = 0
        Swift.withUnsafeMutableBytes(of: &word) { $0.copyMemory(from: bytes) }
        if bytes.count < 8 { word |= UInt64(bytes.count) << 56 }
        hasher.combine(word)
    }
}

extension Frame: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self.init(value) }
}

extension Frame: CustomStringConvertible {
    /// Printable text as is; anything else as hex, so logs never hold raw bytes.
    public var description: String {
        if let text = string, text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) {
            return text.count > 80 ? "\(text.prefix(80))… (\(count) bytes)" : text
        }
        let hex = withUnsafeBytes { $0.prefix(32).map { String($0, radix: 16).leftPadded(to: 2) }.joined() }
        return count > 32 ? "0x\(hex)… (\(count) bytes)" : "0x\(hex)"
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
