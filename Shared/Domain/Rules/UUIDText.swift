#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension UUID {
    /// The UUID written as 36 characters, 8-4-4-4-12 hex digits in either
    /// case (what `UUID(uuidString:)` accepts), or nil. Parsed here byte by
    /// byte: Foundation's parser goes through sscanf, which was 7% of
    /// an import's reading time, and every request with a uid pays it.
    public init?(text: some StringProtocol) {
        var bytes:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let parsed: Bool =
            text.utf8.withContiguousStorageIfAvailable { utf8 in
                Self.parse(utf8, into: &bytes)
            } ?? Self.parse(Array(text.utf8), into: &bytes)
        guard parsed else { return nil }
        self.init(uuid: bytes)
    }

    /// The UUID as `uuidString` writes it (36 characters, upper-case hex),
    /// written here: Foundation's goes through snprintf, and a posts.get
    /// writes a uid twice (the key it reads, the reply).
    public var text: String {
        String(unsafeUninitializedCapacity: 36) { output in
            let digits: StaticString = "0123456789ABCDEF"
            var position = 0
            withUnsafeBytes(of: uuid) { bytes in
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        output[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    output[position] = digits.utf8Start[Int(byte >> 4)]
                    output[position + 1] = digits.utf8Start[Int(byte & 0x0F)]
                    position += 2
                }
            }
            return position
        }
    }

    private static func parse(_ utf8: some RandomAccessCollection<UInt8>, into bytes: inout uuid_t) -> Bool {
        guard utf8.count == 36 else { return false }
        return withUnsafeMutableBytes(of: &bytes) { output in
            var index = utf8.startIndex
            var byte = 0
            for position in 0..<36 {
                let character = utf8[index]
                index = utf8.index(after: index)
                if position == 8 || position == 13 || position == 18 || position == 23 {
                    guard character == UInt8(ascii: "-") else { return false }
                    continue
                }
                guard let digit = hexDigit(character) else { return false }
                output[byte / 2] = byte % 2 == 0 ? digit << 4 : output[byte / 2] | digit
                byte += 1
            }
            return true
        }
    }

    private static func hexDigit(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
