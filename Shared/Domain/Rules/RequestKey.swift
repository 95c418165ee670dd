#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A key the client gives a write, the same on every attempt of that
/// write, so that a write sent again (to another gateway, after a lost
/// answer) is applied once and answered as the first attempt was
/// (docs/PROTOCOL.md, "Request keys": each delivery mechanism carries it
/// its own way).
///
/// Each store remembers a key with what its write answered, in the same
/// transaction as the write, for `remembered`: across restarts, and across
/// posts-service processes sharing one PostgreSQL database. Only writes
/// that succeed are remembered, since a write that failed changed nothing
/// and may simply run again.
///
/// The key is a parameter of every write, from the use case to the port
/// (`PostStore`): a write cannot be called, served or stored without its
/// caller saying what a retry of it does. `nil` says "no key": the write
/// is applied each time it arrives (the gateway connection still keys each
/// of its own calls, so its failover retries apply once).
public struct RequestKey: Sendable, Hashable, CustomStringConvertible {
    public let text: String

    /// How long a key is remembered after its write: far longer than any
    /// request's timeout, which bounds how long a client goes on retrying.
    public static let remembered = Duration.seconds(600)
    public static let maxLength = 128
    /// Forgotten keys a store drops per keyed write, at most: the memory
    /// stays within a window's worth of writes, and no write pays for a
    /// long backlog.
    public static let prunedPerWrite = 16

    /// The name errors give the key when no caller named it otherwise; a
    /// delivery mechanism renames it to where its requests carry it.
    public static let field = "requestKey"

    /// Checks the form: 1 to 128 characters from `A-Z a-z 0-9 . _ : -`
    /// (a UUID, say). `field` names the member for the error.
    public init(_ text: String, field: String = RequestKey.field) throws(PostsError) {
        guard !text.isEmpty else { throw .invalid(field, .empty) }
        guard text.utf8.count <= Self.maxLength else {
            throw .invalid(field, .tooLong(max: Self.maxLength, actual: text.utf8.count, unit: .bytes))
        }
        guard text.utf8.allSatisfy(Self.isAllowed) else {
            throw .invalid(field, .malformed("must be 1 to \(Self.maxLength) characters from A-Z a-z 0-9 . _ : - (got '\(text)')"))
        }
        self.text = text
    }

    public var description: String { text }

    /// The uid a post created under this key takes, the same on every
    /// attempt, so that a create sent again (with no uid of its own) is the
    /// same post and answered as the first time: a name-based UUID (RFC
    /// 9562's version 8) of the key.
    public var derivedUID: UUID {
        var high = Fingerprint()
        var low = Fingerprint(seed: 0x6c62_272e_07bb_0142)
        high.add("post uid from request key")
        high.add(text)
        low.add(text)
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            bytes[index] = UInt8(truncatingIfNeeded: high.value >> (56 - 8 * index))
            bytes[8 + index] = UInt8(truncatingIfNeeded: low.value >> (56 - 8 * index))
        }
        bytes[6] = bytes[6] & 0x0f | 0x80  // version 8
        bytes[8] = bytes[8] & 0x3f | 0x80  // variant 10
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "-"): true
        default: false
        }
    }
}
