import Domain
import Foundation
import GRDB

/// A post as stored. Dates are seconds since 1970 as REAL, so they sort,
/// compare and round-trip exactly (cursors depend on that).
struct PostRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "post"

    var uid: String
    var title: String
    var content: String
    var createDate: Double
    var updateDate: Double
    var sequence: Int64

    init(domain post: Post, sequence: Int64) {
        uid = post.uid.uuidString
        title = post.title
        content = post.content
        createDate = post.createDate.timeIntervalSince1970
        updateDate = post.updateDate.timeIntervalSince1970
        self.sequence = sequence
    }

    func toDomain() -> Post {
        Post(uid: UUID(uuidString: uid) ?? UUID(), title: title, content: content,
             createDate: Date(timeIntervalSince1970: createDate), updateDate: Date(timeIntervalSince1970: updateDate))
    }
}
