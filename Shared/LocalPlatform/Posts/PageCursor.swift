import Domain
import Foundation

/// Where a page of posts (newest first) ends: the last post's create date
/// and uid. Opaque to callers; exact, because the date's bits are kept.
struct PageCursor: Equatable {
    var createDate: Double
    var uid: String

    init(createDate: Double, uid: String) {
        self.createDate = createDate
        self.uid = uid
    }

    init(_ text: String) throws(PostsError) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "v1", let bits = UInt64(parts[1], radix: 16),
            Double(bitPattern: bits).isFinite, let uid = UUID(text: parts[2])
        else {
            throw .invalid("cursor", .unknownCursor(text))
        }
        createDate = Double(bitPattern: bits)
        self.uid = uid.uuidString  // stored uids are upper case
    }

    var text: String { "v1:\(String(createDate.bitPattern, radix: 16)):\(uid)" }
}
