/// A key the client gives a write (`params._meta.requestKey`), the same on
/// every attempt of that write, so that a write sent again (to another
/// gateway, after a lost answer) is applied once and answered as the first
/// attempt was (docs/PROTOCOL.md, "Request keys").
///
/// Each store remembers a key with what its write answered, in the same
/// transaction as the write, for `remembered`: across restarts, and across
/// posts-service processes sharing one PostgreSQL database. Only writes
/// that succeed are remembered, since a write that failed changed nothing
/// and may simply run again.
///
/// The key reaches the store as a task-local (`current`), as a deadline or
/// a trace does: the router sets it around a write's handler, the
/// interactor in between needs no parameter for it, and the store reads it
/// where it writes.
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

    /// Checks the form: 1 to 128 characters from `A-Z a-z 0-9 . _ : -`
    /// (a UUID, say). `field` names the member for the error.
    public init(_ text: String, field: String = "_meta.requestKey") throws(PostsError) {
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

    /// The key of the write being served, if its request carried one.
    @TaskLocal public static var current: RequestKey?

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "-"): true
        default: false
        }
    }
}
